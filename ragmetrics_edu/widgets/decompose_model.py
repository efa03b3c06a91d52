"""The decomposition explorer's model: one text cut into statements (claims), and the score it gets.

Context recall and faithfulness count statements, so *how a text is cut into statements*
decides the score as much as the judge does: deck A's expected output is one statement or two,
deck E's Einstein answer one claim or two. The model holds the text as consecutive **pieces**,
each with the verdict the deck's judge gave it, and a **cut** between neighbouring pieces that
is on (two statements) or off (one). A statement made of several pieces is supported only when
every piece is (the strict judge, the default); a lenient judge accepts it when any piece is.
Its view is :mod:`ragmetrics_edu.widgets.decompose`; this module imports no widget library.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Sequence

from .. import examples
from ..errors import InputError
from ..results import MetricResult
from ..validate import IDK, NO, YES, as_list, choice, flag, one_verdict, plain, text_list, verdict_list
from .model_base import Observable, check_index
from .offered import decompose_spec, statement_view

__all__ = ["CASES", "DecomposeCase", "DecomposeModel", "combine"]

@dataclass(frozen=True)
class DecomposeCase:
    """A deck's text cut into the pieces its statements come from.

    ``field`` names the catalogue input holding the whole text; the pieces, joined by single
    spaces, are that text exactly. The statements and verdicts come from the catalogue case.
    """

    example_id: str
    case: str | None
    field: str
    pieces: tuple[str, ...]
    title: str


#: The decks' own cases, keyed by example id (and ``/case`` where the example has several).
CASES: dict[str, DecomposeCase] = {
    "A-cr-what-is-ai": DecomposeCase(
        "A-cr-what-is-ai", None, "expected_output",
        ("AI, also known as Artificial Intelligence,",
         "is used to build complex systems for applications like virtual assistants, robotics, and autonomous "
         "vehicles."),
        "Deck A, context recall: the expected output, cut at the comma or not"),
    "E-faith-einstein": DecomposeCase(
        "E-faith-einstein", "low", "answer_low", ("Einstein was born in Germany", "on 20th March 1879."),
        "Deck E, faithfulness: the low answer as one claim or two"),
    "E-faith-einstein/high": DecomposeCase(
        "E-faith-einstein", "high", "answer_high", ("Einstein was born in Germany", "on 14th March 1879."),
        "Deck E, faithfulness: the high answer as one claim or two"),
    "B-cr-deforestation": DecomposeCase(
        "B-cr-deforestation", None, "ground_truth",
        ("The primary causes of deforestation are logging,", "agriculture,", "urbanization,", "and wildfires."),
        "Deck B, context recall: four causes, cut into one to four claims"),
}


def combine(verdicts: Sequence[str], lenient: bool = False) -> str:
    """The verdict on a statement made of pieces with these verdicts.

    Strict (the default): yes only when every piece is yes; no when any piece is no; else idk.
    Lenient: yes when any piece is yes; else idk when any is idk; else no.
    """
    marks = verdict_list("verdicts", verdicts, allow_idk=True)
    if not marks:
        raise InputError("verdicts", "at least one verdict", marks)
    if flag("lenient", lenient):
        return YES if YES in marks else IDK if IDK in marks else NO
    return NO if NO in marks else IDK if IDK in marks else YES


class DecomposeModel(Observable):
    """A text as pieces with verdicts, the cuts between them, and the counting metric's score.

    ``DecomposeModel("context_recall", pieces=[...], claims=[...], verdicts=["yes", "no"])``;
    ``claims`` (default: the pieces) say how each piece reads as a statement of its own.
    ``cuts[b]`` is True when pieces ``b`` and ``b + 1`` are separate statements (default: all
    cut, the deck's decomposition). ``split``/``merge`` act on statements (0-based, in order);
    ``toggle_cut`` on the boundary between two pieces; ``toggle`` on a piece's verdict.
    """

    def __init__(
        self,
        metric: str = "context_recall",
        *,
        pieces: Sequence[str],
        verdicts: Sequence[Any],
        claims: Sequence[str] | None = None,
        cuts: Sequence[bool] | None = None,
        variant: str | None = None,
        lenient: bool = False,
        context: Sequence[str] | None = None,
        title: str = "",
    ) -> None:
        super().__init__()
        spec = self.spec = decompose_spec("metric", metric)
        self.metric = spec.name
        self._pieces = text_list("pieces", pieces)
        if not self._pieces:
            raise InputError("pieces", "at least one piece of text", list(pieces))
        self._claims = list(self._pieces) if claims is None else text_list("claims", claims)
        if len(self._claims) != len(self._pieces):
            raise InputError("claims", f"one claim per piece ({len(self._pieces)})", list(self._claims))
        self._verdicts = verdict_list("verdicts", verdicts, allow_idk=statement_view(spec).idk)
        if len(self._verdicts) != len(self._pieces):
            raise InputError("verdicts", f"one verdict per piece ({len(self._pieces)})", list(verdicts))
        self._cuts = self._check_cuts([True] * (len(self._pieces) - 1) if cuts is None else cuts)
        self.variant = choice("variant", "deepeval" if variant is None else variant, spec.named_variants)
        lenient = flag("lenient", lenient)
        self._lenient = lenient
        self.context = None if context is None else text_list("context", context)
        self.title = title
        self.key: str | None = None  # the CASES key when built by from_example
        self._result = self._compute()
        self._remember_start()

    @classmethod
    def from_example(cls, key: str, **overrides: Any) -> "DecomposeModel":
        """The model of one of the decks' cases in :data:`CASES` (statements and verdicts from the catalogue)."""
        if not isinstance(key, str) or key not in CASES:
            raise InputError("key", "one of " + ", ".join(repr(k) for k in CASES), key)
        spec = CASES[key]
        example = examples.load(spec.example_id)
        chosen = example.case(spec.case)
        kwargs = chosen.kwargs
        whole = example.inputs[spec.field]
        if " ".join(spec.pieces) != whole:
            raise InputError("pieces", f"pieces that join into the catalogue's {spec.field}", list(spec.pieces))
        options: dict[str, Any] = {
            "pieces": spec.pieces, "claims": kwargs.get("statements", kwargs.get("claims")),
            "verdicts": kwargs["verdicts"], "variant": kwargs.get("variant"), "title": spec.title}
        if "context" in kwargs:  # faithfulness shows its context
            options["context"] = kwargs.get("context")
        options.update(overrides)
        model = cls(chosen.metric, **options)
        model.key = key
        return model

    def _check_cuts(self, cuts: Any) -> list[bool]:
        cuts = [plain(c) for c in as_list("cuts", cuts, f"a list of {len(self._pieces) - 1} True/False values")]
        if len(cuts) != len(self._pieces) - 1 or any(not isinstance(c, bool) for c in cuts):
            raise InputError("cuts", f"{len(self._pieces) - 1} True/False values, one per boundary", cuts)
        return cuts

    # -- state ---------------------------------------------------------------------
    @property
    def pieces(self) -> list[str]:
        """The pieces of the text, in order."""
        return list(self._pieces)

    @property
    def text(self) -> str:
        """The whole text (the pieces joined by spaces)."""
        return " ".join(self._pieces)

    @property
    def piece_verdicts(self) -> list[str]:
        """The judge's verdict on each piece."""
        return list(self._verdicts)

    @property
    def cuts(self) -> list[bool]:
        """Per boundary between two pieces: True when they are separate statements."""
        return list(self._cuts)

    @property
    def lenient(self) -> bool:
        """Whether a statement of several pieces counts when any piece (not every piece) is supported."""
        return self._lenient

    @property
    def groups(self) -> list[list[int]]:
        """The pieces (0-based indices) each statement is made of, in order."""
        groups = [[0]]
        for b, cut in enumerate(self._cuts):
            if cut:
                groups.append([b + 1])
            else:
                groups[-1].append(b + 1)
        return groups

    @property
    def n(self) -> int:
        """How many statements the text is cut into now."""
        return len(self.groups)

    @property
    def statements(self) -> list[str]:
        """Each statement's text: a piece's own claim when alone, the pieces' words when merged."""
        return [self._claims[g[0]] if len(g) == 1 else " ".join(self._pieces[i] for i in g) for g in self.groups]

    @property
    def verdicts(self) -> list[str]:
        """Each statement's verdict, combined from its pieces' (see :func:`combine`)."""
        return [combine([self._verdicts[i] for i in g], self._lenient) for g in self.groups]

    @property
    def variants(self) -> tuple[str, ...]:
        return self.spec.named_variants

    # -- changes -------------------------------------------------------------------
    def set_cut(self, boundary: int, cut: bool) -> None:
        """Cut (True) or join (False) the text between piece ``boundary`` and the next one."""
        b = check_index("boundary", boundary, len(self._cuts))
        cut = flag("cut", cut)
        if self._cuts[b] != cut:
            self._cuts[b] = cut
            self._changed("cuts")

    def toggle_cut(self, boundary: int) -> None:
        """Flip the cut between piece ``boundary`` and the next one."""
        b = check_index("boundary", boundary, len(self._cuts))
        self.set_cut(b, not self._cuts[b])

    def split(self, i: int, after: int | None = None) -> None:
        """Split statement ``i`` in two after its piece ``after`` (0-based within it; default its first)."""
        group = self.groups[check_index("i", i, self.n)]
        if len(group) < 2:
            raise InputError("i", "a statement made of two or more pieces (this one is a single piece)", i)
        at = check_index("after", 0 if after is None else after, len(group) - 1)
        self.set_cut(group[at], True)

    def merge(self, i: int) -> None:
        """Merge statement ``i`` with the statement after it."""
        if self.n < 2:
            raise InputError("i", "a statement with another one after it (the text is one statement)", i)
        group = self.groups[check_index("i", i, self.n - 1)]
        self.set_cut(group[-1], False)

    def set_cuts(self, cuts: Sequence[bool]) -> None:
        """Set every cut at once."""
        cuts = self._check_cuts(cuts)
        if cuts != self._cuts:
            self._cuts = cuts
            self._changed("cuts")

    def split_all(self) -> None:
        """Every piece its own statement."""
        self.set_cuts([True] * len(self._cuts))

    def merge_all(self) -> None:
        """The whole text as one statement."""
        self.set_cuts([False] * len(self._cuts))

    def set_verdict(self, piece: int, verdict: Any) -> None:
        """The judge's verdict on one piece."""
        j = check_index("piece", piece, len(self._pieces))
        value = one_verdict("verdict", verdict, allow_idk=statement_view(self.spec).idk)
        if value != self._verdicts[j]:
            self._verdicts[j] = value
            self._changed("verdicts")

    def toggle(self, piece: int) -> None:
        """Cycle a piece's verdict: yes -> no (-> idk where the metric has it) -> yes."""
        j = check_index("piece", piece, len(self._pieces))
        cycle = (YES, NO, IDK) if statement_view(self.spec).idk else (YES, NO)
        self.set_verdict(j, cycle[(cycle.index(self._verdicts[j]) + 1) % len(cycle)])

    def set_lenient(self, value: bool) -> None:
        """Choose the lenient (any piece) or the strict (every piece) judge of merged statements."""
        value = flag("lenient", value)
        if value != self._lenient:
            self._lenient = value
            self._changed("lenient")

    def set_variant(self, variant: str) -> None:
        variant = choice("variant", variant, self.variants)
        if variant != self.variant:
            self.variant = variant
            self._changed("variant")

    def state(self) -> dict[str, Any]:
        """The cuts, piece verdicts, lenient switch and variant."""
        return {"cuts": list(self._cuts), "verdicts": list(self._verdicts), "lenient": self._lenient,
                "variant": self.variant}

    def reset(self) -> None:
        """Back to the deck's decomposition, verdicts and judge."""
        start = self._start
        self._cuts, self._verdicts = list(start["cuts"]), list(start["verdicts"])
        self._lenient, self.variant = start["lenient"], start["variant"]
        self._changed("reset")

    # -- scoring -------------------------------------------------------------------
    def _score(self, statements: list[str], verdicts: list[str]) -> MetricResult:
        compute = self.spec.function()
        given = {"variant": self.variant, "context": self.context}
        return compute(statements, verdicts, **{k: v for k, v in given.items() if k in self.spec.parameters()})

    def _compute(self) -> MetricResult:
        return self._score(self.statements, self.verdicts)

    def every_cut(self) -> list[tuple[tuple[bool, ...], float]]:
        """The score of every way to cut the text (2 to the number of boundaries), same verdicts and judge."""
        out = []
        for cuts in product((True, False), repeat=len(self._cuts)):
            probe = DecomposeModel(self.metric, pieces=self._pieces, claims=self._claims, verdicts=self._verdicts,
                                   cuts=list(cuts), variant=self.variant, lenient=self._lenient, context=self.context)
            out.append((cuts, probe.score))
        return out

    @property
    def score_range(self) -> tuple[float, float]:
        """The lowest and the highest score over every way to cut the text."""
        scores = [score for _, score in self.every_cut()]
        return min(scores), max(scores)
