"""``compare --labels FILE``: people's pass/fail on some rows of either version, and each version's pass rate.

The labels file (JSONL or CSV) has one row per labelled answer: ``id`` (a row id of the version), ``version``
(``A`` or ``B``) and ``pass`` (true/false, yes/no, 1/0). Labels are joined to the version's rows by id, so both
files need ids. For each version, with the chosen metric's score as the predictor, used as it is (a score from
0 to 1; no threshold is tuned on the labels):

* labels alone: people's share of that version's labelled answers, with Wilson's interval;
* PPI++: the metric's mean score over all the version's answers, corrected by people's labels (prediction-
  powered inference with the tuned λ), :func:`ragmetrics_edu.agreement.estimate_pass_rate` as lesson 14 uses it;
* the difference B − A of each estimate, the two versions' errors counted as independent (the same ids
  labelled in both versions make it conservative): for labels alone Newcombe's interval from the two Wilson
  intervals, for PPI++ a normal interval; and the labels that would give each version's estimate ±0.05.

Where people's labels of a version all agree (every labelled answer passed, or none did), no spread was
measured: PPI++ then gives no interval (a normal one would have width 0 and claim certainty), so neither does
its difference, and the labels needed are planned for the widest case (a share of 0.5), as Wilson's are.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from statistics import NormalDist, fmean
from typing import Any

from .. import validate
from ..agreement import estimate_pass_rate
from ..agreement.planning import ppi_variance, wilson_half_width
from ..errors import InputError
from ..results import fmt
from .datasets import Dataset, field_at, read_rows
from .report_cases import num

#: The compare and evaluate pages' own parts: their public way in is `ragmetrics-edu compare --report` (and
#: `evaluate --report`); these names are not a library API.
__all__ = ["VersionRates", "TARGET_HALF_WIDTH"]

#: The half-width the labels-needed line plans for.
TARGET_HALF_WIDTH = 0.05
_TRUE, _FALSE = {"true", "yes", "pass", "1", "y"}, {"false", "no", "fail", "0", "n"}


def _verdict(where: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(field_at(where, "pass"), "true or false (yes/no, pass/fail, 1/0)", value)


def read_labels(path: Any, a: Dataset, b: Dataset) -> dict[str, dict[str, bool]]:
    """version (``A``/``B``) -> id -> people's verdict, checked against both files' ids (every bad row named)."""
    raw, places = read_rows(validate.path("--labels", path, expected="a .jsonl or .csv file of labels"))
    ids = {"A": {str(c["id"]) for c in a.cases} if a.has_ids else None,
           "B": {str(c["id"]) for c in b.cases} if b.has_ids else None}
    found: dict[str, dict[str, bool]] = {"A": {}, "B": {}}
    bad = []
    for where, row in zip(places, raw, strict=True):
        if not isinstance(row, dict):
            bad.append(f"{where}: expected a row with id, version and pass")
            continue
        version = str(row.get("version", "")).strip().upper()
        if version not in found:
            bad.append(f"{field_at(where, 'version')}: expected A or B, got {row.get('version')!r}")
            continue
        known = ids[version]
        if known is None:
            raise InputError("--labels", f"ids on version {version}'s rows (labels are joined by id)", None)
        ident = str(row.get("id"))
        if row.get("id") is None or ident not in known:
            bad.append(f"{field_at(where, 'id')}: expected an id of version {version}'s rows, got {row.get('id')!r}")
            continue
        try:
            found[version][ident] = _verdict(where, row.get("pass"))
        except InputError as exc:
            bad.append(str(exc))
    if bad:
        raise InputError(f"--labels: {len(bad)} bad row{'' if len(bad) == 1 else 's'}", "labels of rows of A or B",
                         f"{len(bad)} bad", hint="; ".join(bad[:20]))
    return found


@dataclass(frozen=True)
class VersionRates:
    """One version's pass rate from labels alone and by PPI++, and the labels ±0.05 would need with each."""

    version: str
    labelled: int
    answers: int
    labels_alone: Any
    ppi: Any
    needed_labels_alone: float
    needed_ppi: float


def _needed_wilson(theta: float, z: float) -> float:
    if not 0 < theta < 1:
        theta = 0.5  # no spread observed: plan for the widest case
    n = 1
    while wilson_half_width(theta, n, z) > TARGET_HALF_WIDTH and n < 10**7:
        n *= 2
    low, high = max(1, n // 2), n
    while low < high:
        mid = (low + high) // 2
        low, high = (low, mid) if wilson_half_width(theta, mid, z) <= TARGET_HALF_WIDTH else (mid + 1, high)
    return float(low)


def _needed_ppi(people: list[float], predicted: list[float], big_n: int, z: float) -> float:
    """Labels for ±0.05 with PPI++, from the variances measured on these labels (planning.ppi_variance)."""
    my, mf = fmean(people), fmean(predicted)
    var_y = fmean([(y - my) ** 2 for y in people])
    var_f = fmean([(f - mf) ** 2 for f in predicted])
    cov = fmean([(y - my) * (f - mf) for y, f in zip(people, predicted, strict=True)])
    target = (TARGET_HALF_WIDTH / z) ** 2
    if var_y == 0:   # people's labels all agree: no spread measured, so plan for the widest (a share of 0.5)
        var_y, cov = 0.25, 0.0
    for n in range(1, 10**6):
        if n >= big_n or ppi_variance(n, big_n, var_y, var_f, cov) <= target:
            return float(n)
    return math.inf


#: Why a PPI++ difference has no interval (see the module).
NO_SPREAD = ("no interval: one version's labels all agree, so PPI++ measured no spread there (a normal interval "
             "would have width 0); read the labels-alone line")


def newcombe_difference(a: Any, b: Any) -> tuple[float, tuple[float, float]]:
    """B − A of two shares from independent labels, with Newcombe's interval built from each share's Wilson
    interval (his method 10): it stays honest where a share is 0 or 1, where a normal interval has width 0.

        d = p_B − p_A;  low = d − sqrt((p_B − l_B)² + (u_A − p_A)²);  high = d + sqrt((u_B − p_B)² + (p_A − l_A)²)
    """
    (p_a, (l_a, u_a)), (p_b, (l_b, u_b)) = (a.score, a.ci), (b.score, b.ci)
    d = p_b - p_a
    return d, (d - math.sqrt((p_b - l_b) ** 2 + (u_a - p_a) ** 2), d + math.sqrt((u_b - p_b) ** 2 + (p_a - l_a) ** 2))


def labelled_rates(labels: dict[str, dict[str, bool]], a: Dataset, b: Dataset, scores_a: list[float | None],
                   scores_b: list[float | None], metric: str, level: float = 0.95) -> dict[str, Any]:
    """Each version's :class:`VersionRates` and the differences B − A (see the module)."""
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, Dataset):
            raise InputError(name, "rows read by evaluation.read_cases()", value)
    if not isinstance(labels, dict) or set(labels) != {"A", "B"}:
        raise InputError("labels", "what read_labels() returns: {'A': {id: bool}, 'B': {id: bool}}", labels)
    for name, scores, data in (("scores_a", scores_a, a), ("scores_b", scores_b, b)):
        if not isinstance(scores, list) or len(scores) != len(data):
            raise InputError(name, f"one score (or None) per row ({len(data)})", scores)
    level = validate.number("level", level, "a level between 0 and 1", low=0.0, high=1.0, low_open=True,
                            high_open=True)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    out: dict[str, Any] = {"metric": metric, "level": level}
    for version, data, scores in (("A", a, scores_a), ("B", b, scores_b)):
        by_id = {str(c["id"]): s for c, s in zip(data.cases, scores, strict=True)}
        every = [min(1.0, max(0.0, s)) for s in scores if s is not None]
        given: list[tuple[bool, float]] = [(verdict, float(score)) for i, verdict in labels[version].items()
                                           if (score := by_id.get(i)) is not None]
        if not given or not every:
            out[version] = None
            continue
        people = [v for v, _ in given]
        predicted = [min(1.0, max(0.0, s)) for _, s in given]
        alone = estimate_pass_rate(people, predicted, every, method="labels", level=level)
        ppi = estimate_pass_rate(people, predicted, every, method="ppi", level=level)
        out[version] = VersionRates(version, len(people), len(every), alone, ppi, _needed_wilson(alone.score, z),
                                    _needed_ppi([float(v) for v in people], predicted, len(every), z))
    if out["A"] is not None and out["B"] is not None:
        out["difference_labels_alone"] = newcombe_difference(out["A"].labels_alone, out["B"].labels_alone)
        ra, rb = out["A"].ppi, out["B"].ppi
        if ra.ci is not None and rb.ci is not None:   # else a version measured no spread: no normal interval
            se = math.sqrt(ra.values["se"] ** 2 + rb.values["se"] ** 2)
            diff = rb.score - ra.score
            out["difference_ppi"] = (diff, (diff - z * se, diff + z * se))
    return out


def _checked(found: Any) -> dict[str, Any]:
    if not isinstance(found, dict) or "metric" not in found or "A" not in found or "B" not in found:
        raise InputError("found", "what labelled_rates() returns", found)
    return found


def labels_text(found: dict[str, Any]) -> str:
    """The labels' lines for the terminal."""
    found = _checked(found)
    lines = [f"\nPeople's labels (predictor: {found['metric']}'s score as it is, no threshold):"]
    for version in ("A", "B"):
        r = found.get(version)
        if r is None:
            lines.append(f"  {version}: no labelled row with a score")
            continue
        for name, est, needed in (("labels alone (Wilson)", r.labels_alone, r.needed_labels_alone),
                                  ("PPI++", r.ppi, r.needed_ppi)):
            shown = "(no interval)" if est.ci is None else f"[{fmt(est.ci[0])}, {fmt(est.ci[1])}]"
            lines.append(f"  {version} {name}: {fmt(est.score)} {shown} from {r.labelled} labels "
                         f"of {r.answers} answers; ±{TARGET_HALF_WIDTH} needs about {needed:,.0f} labels "
                         f"({max(0.0, needed - r.labelled):,.0f} more)")
    for key, name in (("labels_alone", "labels alone"), ("ppi", "PPI++")):
        if f"difference_{key}" in found:
            diff, (low, high) = found[f"difference_{key}"]
            lines.append(f"  B − A, {name}: {diff:+.4f} [{fmt(low)}, {fmt(high)}]")
    if found.get("A") is not None and found.get("B") is not None and "difference_ppi" not in found:
        lines.append(f"  B − A, PPI++: {NO_SPREAD}")
    return "\n".join(lines)


def labels_html(found: dict[str, Any]) -> str:
    """The labels' section of the comparison page (numbers carry data-v, as the page's others)."""
    found = _checked(found)
    rows = []
    for version in ("A", "B"):
        r = found.get(version)
        if r is None:
            rows.append(f"<tr><td>{version}</td><td colspan=\"5\">no labelled row with a score</td></tr>")
            continue
        for key, name, est, needed in (("labels", "labels alone (Wilson)", r.labels_alone, r.needed_labels_alone),
                                       ("ppi", "PPI++ (score as predictor)", r.ppi, r.needed_ppi)):
            low, high = est.ci or (None, None)
            k = f"labels.{version}.{key}"
            rows.append(f"<tr><td>{version}</td><td>{name}</td><td>{num(k + '.rate', est.score)} "
                        f"[{num(k + '.ci_low', low)}, {num(k + '.ci_high', high)}]</td><td>{r.labelled} of "
                        f"{r.answers}</td><td>{num(k + '.needed', needed, 6)}</td></tr>")
    diffs = "".join(f"<li>B − A, {name}: {num(f'labels.difference.{key}', found[f'difference_{key}'][0])} "
                    f"[{num(f'labels.difference.{key}.low', found[f'difference_{key}'][1][0])}, "
                    f"{num(f'labels.difference.{key}.high', found[f'difference_{key}'][1][1])}]</li>"
                    for key, name in (("labels_alone", "labels alone"), ("ppi", "PPI++")) if f"difference_{key}" in found)
    if found.get("A") is not None and found.get("B") is not None and "difference_ppi" not in found:
        diffs += f"<li>B − A, PPI++: {html.escape(NO_SPREAD, quote=False)}</li>"
    return (f"<section><h2>Pass rates from people's labels</h2><p>Predictor: {html.escape(found['metric'])}'s score "
            "used as it is (from 0 to 1; no threshold tuned on the labels). Labels alone: people's share with "
            "Wilson's interval. PPI++: the score's mean over all answers corrected by the labels "
            "(agreement.estimate_pass_rate, method 'ppi', tuned λ).</p><div class=\"scroll\"><table><tr><th>version"
            "</th><th>estimator</th><th>pass rate [interval]</th><th>labels of answers</th><th>labels for ±"
            f"{TARGET_HALF_WIDTH}</th></tr>{''.join(rows)}</table></div><ul>{diffs}</ul><p class=\"muted\">The "
            "differences count the two versions' errors as independent (labels alone: Newcombe's interval from the two "
            "Wilson intervals; PPI++: normal).</p></section>")
