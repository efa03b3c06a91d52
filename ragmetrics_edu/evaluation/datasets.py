"""The rows :func:`~ragmetrics_edu.evaluate` scores, read from a file, a DataFrame or a list of dicts.

One row is one case: ``question``, ``answer``, ``contexts`` (a list of passage texts) and ``reference``
(the expected answer), and an optional ``id``. Ragas' and DeepEval's names for the same fields are
accepted (:data:`ALIASES`). Files: JSONL (one object a line), JSON (a list of objects), CSV (contexts
as a JSON list in one cell, or as columns ``context_1``, ``context_2``, ...) and Parquet (when pandas has
an engine for it). Everything wrong with a file or a row is an :class:`~ragmetrics_edu.InputError` naming
the row (its line in the file, or ``data[i]``) and the field, before any metric runs.

Contexts are never split on a character, with one exception: DeepEval's own exports. DeepEval 4.1.10's
``EvaluationDataset.save_as("csv")`` and ``save_as("jsonl")`` write ``retrieval_context`` as ONE text, the
passages joined with ``|`` (``deepeval/dataset/utils.py``: ``DELIMITER = "|"``, ``join_retrieval_context``), and
its loaders split it on ``|`` again. So a ``retrieval_context`` given as a text (not a list) is split on ``|``
exactly as DeepEval splits it, and a passage DeepEval saved as ``deepeval_source=S,deepeval_context=C`` is read
as its context C. A passage that itself held ``|`` was already cut in two by DeepEval when it was saved: that
cannot be undone here. Under any other name (``contexts``, Ragas' ``retrieved_contexts``) a text is refused:
give a JSON list, or columns ``context_1``, ``context_2``, ... (a passage may contain ``|``, ``;`` or ``,``).
"""

from __future__ import annotations

import ast
import csv
import json
import math
import numbers
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .. import validate
from ..errors import InputError

__all__ = ["ALIASES", "FIELDS", "SHOWN", "Dataset", "read_cases", "load_cases", "field_names", "field_at"]

#: The fields of a row, as the README documents them (``reference`` is ``ground_truth`` inside the library).
FIELDS = ("id", "question", "answer", "contexts", "reference")

#: Other names of each field -> the library's name: Ragas' (``user_input`` ...), DeepEval's (``input`` ...),
#: deck E's ``ground_truth`` and DeepEval's CSV example's ``query``.
ALIASES = {"user_input": "question", "input": "question", "query": "question",
           "response": "answer", "actual_output": "answer",
           "retrieved_contexts": "contexts", "retrieval_context": "contexts",
           "reference": "ground_truth", "expected_output": "ground_truth"}

#: The library's name of a field -> the name messages and the README use.
SHOWN = {"ground_truth": "reference"}

_CONTEXT_COLUMN = re.compile(r"^contexts?_(\d+)$")
_SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".csv": "csv", ".parquet": "parquet",
             ".pq": "parquet"}
#: The most bad rows one error message lists (the count says how many more).
SHOWN_BAD_ROWS = 20
_ACCEPTED = "a DataFrame, a list of dicts, or the path of a .jsonl, .json, .csv or .parquet file"


def field_names(name: str) -> str:
    """A field's documented name and its aliases, e.g. ``reference (or ground_truth, expected_output)``."""
    name = validate.text("name", name)
    shown = SHOWN.get(name, name)
    others = [a for a, n in ALIASES.items() if n == name and a != shown] + ([name] if shown != name else [])
    return shown + (f" (or {', '.join(others)})" if others else "")


def field_at(where: str, name: str) -> str:
    """How an error names a field of a row: ``data[2].contexts`` (a list), ``cases.csv line 3: contexts`` (a file)."""
    where, name = validate.text("where", where), validate.text("name", name)
    return f"{where}.{name}" if where.startswith("data[") else f"{where}: {name}"


@dataclass
class Dataset:
    """Cases read from one source: ``cases`` (dicts with the library's field names), ``where`` (how an error
    names each row: ``data[2]`` or ``cases.jsonl line 3``), ``source`` (the file's name, or ``data``) and
    ``has_ids`` (every row has an ``id``, all different)."""

    cases: list[dict[str, Any]]
    where: list[str]
    source: str
    has_ids: bool

    def __len__(self) -> int:
        return len(self.cases)


def load_cases(data: Any) -> list[dict[str, Any]]:
    """The cases of ``data`` (see :func:`read_cases`), as plain dicts with the library's field names."""
    return read_cases(data).cases


def read_cases(data: Any) -> Dataset:
    """Read and check every row of ``data``: a file path, a pandas DataFrame or a list of dicts (a Dataset as it is)."""
    if isinstance(data, Dataset):
        return data
    if isinstance(data, (str, Path)):
        path = validate.path("data", data, expected=_ACCEPTED)
        raw, where, tabular = _read_file(path)
        source = path.name
    elif hasattr(data, "to_dict") and hasattr(data, "columns"):
        raw = _frame_rows(data, "data")
        where, tabular, source = [f"data[{i}]" for i in range(len(raw))], True, "data"
    elif isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        raw = validate.as_list("data", data, _ACCEPTED)
        where, tabular, source = [f"data[{i}]" for i in range(len(raw))], False, "data"
    else:
        raise InputError("data", _ACCEPTED, data)
    if not raw:
        raise InputError("data", "at least one case", data if source == "data" else source,
                         hint="the file has no rows" if source != "data" else "")
    cases, bad = [], []
    for row, at in zip(raw, where, strict=True):  # every bad row is named, not only the first
        try:
            cases.append(_case(row, at, tabular))
        except InputError as exc:
            bad.append(exc)
    if len(bad) == 1:
        raise bad[0]
    if bad:
        listed = "; ".join(str(e) for e in bad[:SHOWN_BAD_ROWS])
        more = f"; and {len(bad) - SHOWN_BAD_ROWS} more" if len(bad) > SHOWN_BAD_ROWS else ""
        raise InputError(f"{source}: {len(bad)} bad rows", "rows that can be read (nothing is scored until every row "
                         "is right)", f"{len(bad)} bad rows", hint=listed + more)
    return Dataset(cases, where, source, _check_ids(cases, where))


def read_rows(path: Any) -> tuple[list[Any], list[str]]:
    """A JSONL, JSON, CSV or Parquet file's rows as they are (no field names changed, nothing checked), and
    where each one is: for side files such as ``compare --labels``."""
    rows, where, _ = _read_file(validate.path("data", path, expected=_ACCEPTED))
    return rows, where


# -- files ------------------------------------------------------------------------------------------
def _read_file(path: Path) -> tuple[list[Any], list[str], bool]:
    """(rows, where each row is, whether cells are table cells): by the file's suffix."""
    kind = _SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise InputError("data", _ACCEPTED, str(path), hint=f"the suffix {path.suffix or '(none)'!r} is not one of "
                         + ", ".join(sorted(_SUFFIXES)))
    if kind == "parquet":
        return _parquet(path)
    try:  # -sig: a spreadsheet's byte-order mark is not a column name
        with path.open(encoding="utf-8-sig", newline="") as file:  # read line by line: a large file is not held twice
            first = file.read(4096)
            file.seek(0)
            if kind == "json" and first.lstrip().startswith("["):
                return _json_list(file.read(), path.name)
            return _csv(file, path.name) if kind == "csv" else _jsonl(file, path.name)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("data", "a UTF-8 text file", str(path), hint=f"it cannot be read ({exc})") from None


def _share(row: Any, seen: dict[str, str]) -> Any:
    """``row`` with each text in it (a field's, or an item of a list) replaced by the first equal text read
    (``seen``): a passage or question repeated on many rows is then held once in memory, not once a row."""
    if isinstance(row, dict):
        for key, value in row.items():
            if type(value) is str:
                row[key] = seen.setdefault(value, value)
            elif type(value) is list:
                row[key] = [seen.setdefault(v, v) if type(v) is str else v for v in value]
    return row


def _jsonl(lines: Iterable[str], name: str) -> tuple[list[Any], list[str], bool]:
    rows, where = [], []
    seen: dict[str, str] = {}  # each distinct text, kept while the file is read (_share)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(_share(json.loads(line), seen))
        except json.JSONDecodeError as exc:
            raise InputError(f"{name} line {number}", "one JSON object per line", line[:40],
                             hint=f"not JSON ({exc.msg} at column {exc.colno})") from None
        where.append(f"{name} line {number}")
    return rows, where, False


def _json_list(text: str, name: str) -> tuple[list[Any], list[str], bool]:
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(name, "a JSON list of objects, one per case", text[:40],
                         hint=f"not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(rows, list):
        raise InputError(name, "a JSON list of objects, one per case", rows)
    seen: dict[str, str] = {}
    rows = [_share(row, seen) for row in rows]
    return rows, [f"{name} item {i}" for i in range(len(rows))], False


def _csv(lines: Iterable[str], name: str) -> tuple[list[Any], list[str], bool]:
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            return [], [], True
        columns = [h.strip() for h in header]
        for i, column in enumerate(columns):
            if not column or column in columns[:i]:
                raise InputError(f"{name} line 1", "a header of distinct, non-empty column names",
                                 column, hint=f"column {i + 1}")
        rows, where = [], []
        seen: dict[str, str] = {}  # each distinct cell text, kept while the file is read (_share)
        start = reader.line_num + 1
        for cells in reader:
            at = f"{name} line {start}"
            start = reader.line_num + 1
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(columns):
                raise InputError(at, f"at most {len(columns)} cells, one per column", f"{len(cells)} cells")
            rows.append(_share({c: (v if v.strip() else None) for c, v in zip(columns, cells, strict=False)}, seen))
            where.append(at)
    except csv.Error as exc:
        raise InputError(f"{name} line {reader.line_num}", "CSV", None, hint=str(exc)) from None
    return rows, where, True


def _parquet(path: Path) -> tuple[list[Any], list[str], bool]:
    import pandas as pd  # lazy: pandas loads only when a table is read

    try:
        frame = pd.read_parquet(path)
    except ImportError:
        raise InputError("data", "a file pandas can read here", path.name,
                         hint="pandas reads Parquet only with pyarrow or fastparquet installed: "
                              "`pip install pyarrow`, or save the table as JSONL or CSV") from None
    except Exception as exc:  # noqa: BLE001 - a damaged file: the engine's own words, in one line
        raise InputError("data", "a readable Parquet file", path.name,
                         hint=f"{type(exc).__name__}: {str(exc)[:120]}") from None
    rows = _frame_rows(frame, path.name)
    return rows, [f"{path.name} row {i}" for i in range(len(rows))], True


def _frame_rows(frame: Any, name: str) -> list[dict[str, Any]]:
    try:
        rows = frame.to_dict(orient="records")
    except Exception as exc:  # noqa: BLE001 - an object that only looks like a DataFrame
        raise InputError(name, "a pandas DataFrame", frame, hint=f"reading it failed ({type(exc).__name__})") from None
    return [{k: _plain(v) for k, v in row.items()} for row in rows]


def _plain(value: Any) -> Any:
    """A DataFrame cell as Python: NaN and pd.NA are missing, numpy numbers and arrays plain numbers and lists."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if value is None or isinstance(value, float) and math.isnan(value) or type(value).__name__ in ("NAType", "NaTType"):
        return None
    return value


# -- one row ----------------------------------------------------------------------------------------
def _case(row: Any, where: str, tabular: bool) -> dict[str, Any]:
    """One row with the library's field names, its contexts a list of texts and its id checked."""
    if not isinstance(row, Mapping):
        raise InputError(where, "a row: an object with question, answer, contexts and reference", row)
    case: dict[str, Any] = {}
    named: dict[str, str] = {}
    numbered: list[tuple[int, str, Any]] = []
    for key, value in row.items():
        if not isinstance(key, str):
            raise InputError(where, "field names that are strings", key)
        matched = _CONTEXT_COLUMN.match(key) if tabular else None
        if matched:
            numbered.append((int(matched.group(1)), key, value))
            continue
        name = ALIASES.get(key, key)
        if name in named:
            raise InputError(where, f"one of {named[name]!r} and {key!r} (both name the field "
                             f"{SHOWN.get(name, name)})", key)
        named[name] = key
        case[name] = value
    if numbered:
        if "contexts" in case:
            raise InputError(where, f"contexts in one field ({named['contexts']!r}) or in numbered columns "
                             "(context_1, context_2, ...), not both", [k for _, k, _ in numbered])
        case["contexts"] = [_text(field_at(where, k), v) for _, k, v in sorted(numbered) if v is not None and v != ""]
    elif "contexts" in case:
        given = case["contexts"]
        if named["contexts"] == "retrieval_context" and isinstance(given, str) and not given.strip().startswith("["):
            given = _deepeval_joined(given)
        case["contexts"] = _contexts(where, named["contexts"], given, tabular)
    if "id" in case:
        case["id"] = _identifier(field_at(where, "id"), case["id"])
    return case


def _contexts(where: str, key: str, value: Any, tabular: bool) -> Any:
    """Row ``where``'s field ``key``: a list of passage texts; a table's cell may hold it as JSON (or the Python
    list pandas writes)."""
    if value is None:
        return None
    if type(value) is list and all(type(item) is str for item in value):  # the common case, checked in one pass
        return list(value)
    field = field_at(where, key)
    if tabular and isinstance(value, str) and value.strip().startswith("["):
        value = _cell_list(field, value)
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InputError(field, "a list of context texts" + (
            ': a JSON list in one cell, e.g. ["first passage", "second passage"], or columns context_1, '
            "context_2, ... (contexts are never split on ';' or ','; only DeepEval's column retrieval_context is "
            "split on '|', as DeepEval's save_as writes it)"
            if tabular else ', e.g. ["first passage", "second passage"]'), value)
    return [_text(f"{field}[{k}]", item) for k, item in enumerate(value)]


#: DeepEval's delimiter of list cells and its marker of a passage with a source (deepeval/dataset/utils.py, 4.1.10).
DEEPEVAL_DELIMITER = "|"
_DEEPEVAL_MARKER = re.compile(r"^deepeval_source=(?P<source>.*?),deepeval_context=(?P<context>.*)$", re.DOTALL)


def _deepeval_joined(cell: str) -> list[str]:
    """DeepEval's ``retrieval_context`` text split as DeepEval's loader splits it: on ``|``, each marker read."""
    parts = cell.split(DEEPEVAL_DELIMITER)
    return [m.group("context") if (m := _DEEPEVAL_MARKER.match(p)) else p for p in parts]


def _cell_list(field: str, cell: str) -> Any:
    try:
        return json.loads(cell)
    except json.JSONDecodeError:
        pass
    try:  # pandas writes a list column as Python's repr (single quotes), as Ragas' to_pandas().to_csv() gives
        return ast.literal_eval(cell)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise InputError(field, 'a JSON list of texts, e.g. ["first passage", "second passage"]', cell) from None


def _text(field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InputError(field, "a passage's text (a string)", value)
    return value


def _identifier(field: str, value: Any) -> Any:
    """An id: a non-empty string or a whole number (a float that is whole, as pandas reads one, becomes an int)."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Integral)) or isinstance(value, str) \
            and not value.strip():
        raise InputError(field, "an id: a non-empty string or a whole number", value)
    return value.strip() if isinstance(value, str) else int(value)


def _check_ids(cases: list[dict[str, Any]], where: list[str]) -> bool:
    """Ids on every row or on none, all different; True when every row has one."""
    have = [c.get("id") is not None for c in cases]
    if not any(have):
        for case in cases:
            case.pop("id", None)
        return False
    if not all(have):
        first_with, first_without = have.index(True), have.index(False)
        raise InputError(field_at(where[first_without], "id"), f"an id on every row or on none ({where[first_with]} has "
                         f"one, {sum(have)} of {len(have)} rows have one)", None)
    seen: dict[Any, int] = {}
    for i, case in enumerate(cases):
        key = str(case["id"])  # 7 and "7" are one id: a CSV reads both as "7"
        if key in seen:
            raise InputError(field_at(where[i], "id"), f"a different id on every row ({where[seen[key]]} has it too)",
                             case["id"])
        seen[key] = i
    return True

