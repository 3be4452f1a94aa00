"""smoothsens_core.validation: the one metric vocabulary (check_metric, metric_from_paper)."""

import pytest

from smoothsens_core.validation import METRICS, PAPER_METRIC_WORDS, check_metric, metric_from_paper


def test_metric_vocabulary_is_the_three_names():
    assert METRICS == ("euclidean", "hamming", "p-neighbouring")
    assert PAPER_METRIC_WORDS == {"gp": "euclidean", "dp": "hamming"}


@pytest.mark.parametrize("name", METRICS)
def test_check_metric_accepts_every_metric_name(name):
    assert check_metric(name) == name


@pytest.mark.parametrize(
    "metric, allowed, match",
    [
        ("gp", ("euclidean", "hamming"),
         r"^metric must be one of 'euclidean', 'hamming'; got metric='gp' \(the papers' GP is metric='euclidean'\)$"),
        ("DP", METRICS, r"got metric='DP' \(the papers' DP is metric='hamming'\)$"),
        ("p-neighbouring", ("euclidean", "hamming"), r"^metric must be one of 'euclidean', 'hamming'; got metric='p-neighbouring'$"),
        ("Euclidean", METRICS, r"got metric='Euclidean'$"),  # names are case-sensitive
        (None, METRICS, r"got metric=None$"),
    ],
)
def test_check_metric_rejects_other_words_naming_the_vocabulary(metric, allowed, match):
    with pytest.raises(ValueError, match=match):
        check_metric(metric, allowed)


@pytest.mark.parametrize("word, name", [("gp", "euclidean"), ("GP", "euclidean"), ("dp", "hamming"), ("Dp", "hamming"),
                                        ("euclidean", "euclidean"), ("hamming", "hamming")])
def test_metric_from_paper_maps_the_papers_words(word, name):
    assert metric_from_paper(word, allowed=("euclidean", "hamming")) == name


def test_metric_from_paper_still_checks_the_allowed_subset():
    with pytest.raises(ValueError, match=r"metric must be one of 'p-neighbouring'; got metric='euclidean'"):
        metric_from_paper("gp", allowed=("p-neighbouring",))
    with pytest.raises(ValueError, match=r"got metric='l1'"):
        metric_from_paper("l1")
