"""The pieces of the report pages that show one case: its name, its answer with the matched words marked, and
the panel with its question, answer, contexts and reference (so a retrieval failure can be told from a
generation failure).

A case is named by its ``id`` when the rows have ids, else by its 1-based row in the file (``row 4``): the
name ``ragmetrics-edu evaluate --explain`` takes.
"""

from __future__ import annotations

import html
import re
from typing import Any, Mapping, Sequence

from ..errors import InputError
from ..results import fmt
from ..text import WORD, tokenize

#: The compare and evaluate pages' own parts: their public way in is `ragmetrics-edu compare --report` (and
#: `evaluate --report`); these names are not a library API.
__all__: list[str] = []


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def case_name(row: Mapping[str, Any], index: int) -> str:
    """``id q7`` when the row has an id, else ``row 4`` (``index`` is 0-based, the name 1-based)."""
    ident = row.get("id")
    if ident is not None and not (isinstance(ident, float) and ident != ident):
        return f"id {ident}"
    return f"row {index + 1}"


def find_case(ids: Sequence[Any] | None, count: int, name: Any) -> int:
    """The 0-based index of the case ``name`` names: an id of the rows (when they have ids), else a 1-based row
    number (``3`` or ``row 3``). An InputError says what names there are."""
    text = str(name).strip()
    if ids is not None:
        for i, ident in enumerate(ids):
            if str(ident) == text:
                return i
    number = text[4:].strip() if text.lower().startswith("row ") else text
    if number.isdigit() and 1 <= int(number) <= count:
        return int(number) - 1
    names = "an id of the rows, or " if ids is not None else ""
    raise InputError("--explain", f"{names}a row number from 1 to {count} (1 is the file's first case)", name)


def marked_answer(answer: Any, contexts: Sequence[str] | None) -> str:
    """The answer as HTML: each content word found in the contexts in ``<mark>``, each one not found in
    ``<span class="miss">``, stop words plain (word overlap's own tokeniser decides which is which)."""
    if not isinstance(answer, str):
        return _esc(answer)
    if not contexts:
        return _esc(answer)
    if isinstance(contexts, str) or not all(isinstance(c, str) for c in contexts):
        raise InputError("contexts", "a list of texts", contexts)
    known = set(tokenize("\n".join(contexts)))
    parts, last = [], 0
    for match in re.finditer(WORD, answer):
        parts.append(_esc(answer[last:match.start()]))
        words = tokenize(match.group(0))
        text = _esc(match.group(0))
        if not words:
            parts.append(text)
        elif any(w in known for w in words):
            parts.append(f"<mark>{text}</mark>")
        else:
            parts.append(f'<span class="miss">{text}</span>')
        last = match.end()
    parts.append(_esc(answer[last:]))
    return "".join(parts)


def case_texts(case: Mapping[str, Any], *, answer_html: str | None = None, label: str = "Answer") -> str:
    """Question, answer (``answer_html`` when given: already marked), contexts and reference as HTML."""
    if not isinstance(case, Mapping):
        raise InputError("case", "a case: a dict with question, answer, contexts, ground_truth", case)
    if answer_html is not None and not isinstance(answer_html, str):
        raise InputError("answer_html", "HTML text, or None", answer_html)
    contexts = case.get("contexts") or []
    shown_contexts = ("<ol class=\"contexts\">" + "".join(f"<li>{_esc(c)}</li>" for c in contexts) + "</ol>"
                      if contexts else '<p class="muted">no contexts</p>')
    reference = case.get("ground_truth")
    return (f'<p class="qa"><b>Question:</b> {_esc(case.get("question"))}</p>'
            f'<p class="qa"><b>{_esc(label)}:</b> {answer_html if answer_html is not None else _esc(case.get("answer"))}'
            f'</p><div class="qa"><b>Contexts:</b>{shown_contexts}</div>'
            f'<p class="qa"><b>Reference:</b> {_esc(reference) if reference is not None else "<span class=muted>none</span>"}</p>')


def num(key: str, value: float | None, digits: int = 4) -> str:
    """A number on the page: shown rounded, its exact value in ``data-v`` (the browser test reads both)."""
    if value is None:
        return '<span class="muted">–</span>'
    return f'<span class="num" data-k="{_esc(key)}" data-v="{value!r}">{fmt(value, digits)}</span>'
