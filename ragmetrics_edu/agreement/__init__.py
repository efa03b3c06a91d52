"""Judge the judge: how far a judge's verdicts, items and scores agree with reference labels.

The reference is whoever labelled: people, a benchmark's construction, or an annotator model; the
arguments named ``human`` take any of them, and a report should say which it was.

* :func:`cohen_kappa` – verdict agreement beyond chance (yes/no, yes/idk/no or any labels;
  linear or quadratic weights for ordered classes), with the confusion matrix, observed and
  expected agreement, percent agreement and a percentile bootstrap interval over items;
* :func:`match_items` – align a judge's extracted items (statements, claims, entities) to the
  reference's by their content (token-set similarity, one-to-one), never by position or count,
  and measure extraction quality (precision, recall, F1) apart from verdict quality;
* :func:`pairwise_accuracy` – the share of answer pairs the judge orders the way the reference
  (the ``human_*`` scores) does (the measure the Ragas paper reports on WikiEval), with a bootstrap interval;
* :func:`mean_absolute_error` – the mean |human − judge| score difference, with a bootstrap interval;
* :func:`validation_report` – a judge's scores against people's labels in one call: AUC with a cluster
  interval, P/R/F1 of the failing class at a threshold, calibration, worst misses, a breakdown by group;
  :func:`auc_difference` (paired), :func:`stratified_auc_of` (pairs within one stratum), :func:`best_threshold`
  and :func:`corrected_pass_rate` (the share of a system's answers that really pass, given the judge's measured TPR and TNR);
* :func:`estimate_pass_rate` – the share of a system's answers that pass, three ways on the same labels: people's
  share alone, prediction-powered inference (PPI++) and Rogan–Gladen, each with its interval;
  :func:`plan_pass_rate` plans the labels each needs, :func:`labels_needed` one method's;
* :func:`span_agreement` – character-level precision, recall and F1 of marked spans against people's;
* :func:`fit_combination` – a logistic regression over several signals, cross-validated by source.

Each returns an :class:`AgreementResult` (``.score``, ``.ci`` as (low, high), ``steps``,
``explain()``, ``to_dict()``, ``plot()``). numpy, pandas and matplotlib are imported only
when a function that needs them runs.
"""

from __future__ import annotations

from .combine import Combination, fit_combination
from .figures import plot_roc
from .kappa import cohen_kappa
from .matching import match_items
from .pass_rate import PassRateResult, estimate_pass_rate
from .planning import labels_needed, plan_pass_rate
from .result import AgreementResult
from .scores import mean_absolute_error, pairwise_accuracy
from .spans import span_agreement
from .validation import (
           auc_difference,
           best_threshold,
           corrected_pass_rate,
           roc_auc,
           stratified_auc_of,
           validation_report,
)

__all__ = ["AgreementResult", "Combination", "auc_difference", "best_threshold", "cohen_kappa", "corrected_pass_rate",
           "fit_combination", "match_items", "mean_absolute_error", "pairwise_accuracy", "plot_roc", "roc_auc",
           "span_agreement", "stratified_auc_of", "validation_report", "labels_needed", "estimate_pass_rate",
           "plan_pass_rate", "PassRateResult"]
