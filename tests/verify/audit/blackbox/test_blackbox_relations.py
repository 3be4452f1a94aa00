"""Neighbourhood relations of the black-box audit (verify.audit.blackbox.relations): a pair that is not
related is refused with its distance shown; add/remove pairs of different sizes are audited.

Reference values: the counting release len(x) + Lap(1/eps) has sensitivity 1 under add/remove-one,
so its privacy loss is exactly eps (Dwork & Roth 2014, Thm. 3.6); with scale 1/(2 eps) it is 2 eps.
"""

from __future__ import annotations

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.audit.blackbox.relations import (
    AddRemoveOne,
    Euclidean,
    Hamming,
    PNeighbouring,
    QueryAnswers,
    SubstituteOne,
)


def _count(x, rng):
    return float(len(np.atleast_1d(x))) + rng.laplace(scale=1.0)


def _count_half_scale(x, rng):
    return float(len(np.atleast_1d(x))) + rng.laplace(scale=0.5)


@pytest.mark.parametrize(
    "relation, pair, msg",
    [(SubstituteOne(), ([1, 0, 1], [1, 0]), r"not neighbouring under substitute-one .*distance inf .*sizes 3 and 2"),
     (SubstituteOne(), ([1, 0, 1], [0, 1, 0]), r"substitute-one .*: distance 3 \(Hamming distance must be 1\)"),
     (AddRemoveOne(), ([1, 0, 1], [1, 1, 1]), r"add/remove-one .*: distance 2 \(both have 3 records"),
     (QueryAnswers("linf", 1.0), ([1] * 5, [3] * 5), r"\|\|a - a'\|\|_inf <= 1: distance 2 "),
     (QueryAnswers("l1", 1.0), ([1] * 5, [2] * 5), r"\|\|a - a'\|\|_1 <= 1: distance 5 "),
     (Euclidean(0.5), (0.0, 2.0), r"euclidean .*: distance 2 .*Lambda = 0.5\]"),
     (PNeighbouring(lambda r: r > 0), ([1.0, 0.0], [0.0, 0.0]), r"p-neighbouring .*: distance 1 \(the changed record")],
)
def test_relation_refuses_an_unrelated_pair_with_its_distance(relation, pair, msg):
    with pytest.raises(ValueError, match=msg):
        relation.check_pair(*pair)
    with pytest.raises(ValueError, match=r"pairs\[0\] is not neighbouring"):
        audit_blackbox_mechanism(_count, 1.0, relation=relation, pairs=[pair], budget=1000)


def test_relation_unit_counts_and_vector_inputs_need_a_relation():
    assert QueryAnswers("linf", 1.0).check_pair([1] * 5, [2] * 5) == 1.0  # one unit: eps is per pair
    assert Euclidean().check_pair([0.0, 0.0], [3.0, 4.0]) == 5.0          # Geo-Privacy: eps per unit distance
    assert Hamming().check_pair([1, 2, 3], [1, 5, 6]) == 2.0                # group privacy: eps per record
    assert AddRemoveOne().check_pair([1, 0, 1], [0, 1]) == 1.0
    with pytest.raises(ValueError, match="vector inputs need a declared neighbourhood relation"):
        audit_blackbox_mechanism(_count, 1.0, pairs=[([1, 1], [1, 2])], budget=1000)
    with pytest.raises(ValueError, match="pass either relation or metric"):
        audit_blackbox_mechanism(_count, 1.0, "hamming", relation=SubstituteOne(), pairs=[([1], [2])], budget=1000)
    with pytest.raises(ValueError, match="norm must be 'linf' or 'l1'"):
        QueryAnswers("l2")
    with pytest.raises(ValueError, match="sensitivity must be"):
        QueryAnswers("linf", -1.0)


def test_add_remove_pairs_of_different_sizes_are_audited():
    ok = audit_blackbox_mechanism(_count, 1.0, relation=AddRemoveOne(), pairs=[([1, 0, 1], [1, 0])],
                                  budget=10_000, rng=0)
    assert ok.passed and "add/remove-one" in ok.metric
    assert ok.eps_lower <= 1.0
    bad = audit_blackbox_mechanism(_count_half_scale, 1.0, relation=AddRemoveOne(), pairs=[([1, 0, 1], [1, 0])],
                                   budget=10_000, rng=0)
    assert bad.violated and 1.0 < bad.eps_lower <= 2.0


def test_p_neighbouring_is_audited_in_its_direction_only():
    # M(X) = number of sensitive records (r > 0) + Lap(1): changing a non-sensitive record into a sensitive
    # one (allowed: not p(x)) moves the count by 1 -> loss 1 in both directions, so eps = 1 passes
    def release(x, rng):
        return float(np.sum(np.asarray(x) > 0)) + rng.laplace(scale=1.0)

    rel = PNeighbouring(lambda r: r > 0)
    rep = audit_blackbox_mechanism(release, 1.0, relation=rel, pairs=[([0.0, 0.0], [1.0, 0.0])], budget=10_000, rng=1)
    assert rep.passed and all(p.x == [0.0, 0.0] for p in rep.pairs)
