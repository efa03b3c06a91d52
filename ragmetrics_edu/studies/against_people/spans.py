"""One answer with people's hallucinated spans marked, beside what a judge flagged (lessons 14 and 15): which
spans some flag caught, and which flags no person marked."""

from __future__ import annotations

import html
from typing import Sequence

from ...data import ragtruth
from ...errors import InputError
from ...text import tokenize
from ...validate import as_list

__all__ = ["span_view", "SpanView"]


class SpanView:
    """One answer with people's hallucinated spans marked, beside what a judge flagged (shows as HTML)."""

    def __init__(self, answer: ragtruth.RagAnswer, flagged: Sequence[str], judge: str = "the judge") -> None:
        if not isinstance(answer, ragtruth.RagAnswer):
            raise InputError("answer", "a RagAnswer (data.ragtruth.answers())", answer)
        flagged = as_list("flagged", flagged, "a list of the texts the judge flagged")
        if not all(isinstance(f, str) for f in flagged):
            raise InputError("flagged", "a list of the texts the judge flagged", flagged)
        if not isinstance(judge, str):
            raise InputError("judge", "who flagged them, in words", judge)
        self.answer = answer
        self.flagged = list(flagged)
        self.judge = judge

    def caught(self) -> list[tuple[str, bool]]:
        """Each human span, and whether some flag shares most of its content words."""
        flags = [set(tokenize(f)) for f in self.flagged]
        out = []
        for span in self.answer.spans:
            words = set(tokenize(span.text))
            out.append((span.text, any(words and len(words & f) / len(words) >= 0.5 for f in flags)))
        return out

    def flag_offsets(self, flag: str) -> tuple[int, int] | None:
        """Where ``flag`` stands in the answer (start, end character), or None when the judge reworded it."""
        if not isinstance(flag, str):
            raise InputError("flag", "the text of a flag", flag)
        start = self.answer.answer.find(flag.strip())
        return None if start < 0 or not flag.strip() else (start, start + len(flag.strip()))

    def unmarked_flags(self) -> list[str]:
        """Flags whose characters overlap no human span: flagged, but people did not mark them.

        A flag found word for word in the answer is compared by character offsets; a reworded flag (a claim the
        judge rephrased) counts as marked when at least half of its content words lie in one span, the rule of
        :meth:`caught` turned round."""
        out = []
        for flag in self.flagged:
            where = self.flag_offsets(flag)
            if where is not None:
                marked = any(s.start < where[1] and where[0] < s.end for s in self.answer.spans)
            else:
                words = set(tokenize(flag))
                marked = any(words and len(words & set(tokenize(s.text))) / len(words) >= 0.5
                             for s in self.answer.spans)
            if not marked:
                out.append(flag)
        return out

    def _repr_html_(self) -> str:
        text, cursor, parts = self.answer.answer, 0, []
        for span in sorted(self.answer.spans, key=lambda s: s.start):
            if span.start < cursor:
                continue
            parts.append(html.escape(text[cursor:span.start]))
            kind = html.escape(span.label_type + (", true but not in the passages" if span.implicit_true else ""))
            parts.append(f"<mark style='background:#f5b7b1' title='{kind}'>{html.escape(text[span.start:span.end])}</mark>")
            cursor = span.end
        parts.append(html.escape(text[cursor:]))
        flags = "".join(f"<li>{html.escape(f)}</li>" for f in self.flagged) or "<li>(nothing flagged)</li>"
        return (f"<div style='display:flex;gap:1.5em'><div style='flex:3'><b>The answer ({html.escape(self.answer.model)})"
                f", people's spans in red</b><p>{''.join(parts)}</p></div><div style='flex:2'><b>Flagged by "
                f"{html.escape(self.judge)}</b><ul>{flags}</ul></div></div>")

    def __repr__(self) -> str:
        spans = "; ".join(f"[{s.label_type}] {s.text}" for s in self.answer.spans) or "(none)"
        return f"answer by {self.answer.model}: people's spans: {spans}; flagged by {self.judge}: {self.flagged}"


def span_view(answer: ragtruth.RagAnswer, flagged: Sequence[str], judge: str = "the judge") -> SpanView:
    """A side-by-side view of one answer: people's spans, and the claims or sentences a judge flagged."""
    return SpanView(answer, flagged, judge)
