"""Definitions of the seeds that carry no statement of their own, recorded as omissions with the claims
that check what is built on them (so the coverage table, verify.claims.coverage, gives each a reason)."""

from __future__ import annotations

from verify.claims import omitted

omitted("002", "Def. 2 and Thm. 1 of Sec. 1 (smooth sensitivity; the informal version of Thm. 8)",
        "Def. 2 is the [NRS07] definition the mechanisms use; Thm. 1 restates Thm. 8 informally, checked as "
        "002-Thm-8-privacy, 002-Thm-8-tight (privacy), 002-Cor-14 (variance) and 002-Lemma-15 (Laplace limit)")
omitted("002", "Sec. 2.1 and Fact 3 of Sec. 2.2 (definitions of DP, LS, SS; continuous partials imply "
        "differentiability)",
        "definitions and a textbook fact; the privacy audits of 002-Thm-8-privacy check eq. (1) exactly; Fact 4 "
        "(the derivative along the diagonal) is claim 002-Fact-4")
omitted("003", "Defs. II.1, II.2, II.3, II.4, II.5 and II.6 (neighbouring relation, DP, Blowfish, OSDP, threshold "
        "proposition, (q, alpha, beta)-one-sidedness)",
        "definitions of prior work and of the problem; one-sidedness (II.6) is evaluated exactly in 003-Prop-IV.7, "
        "003-Ineq-7-example and 003-Cor-V.6, DP (II.2) in 003-Sec-III.C-risk-dp")
omitted("003", "Def. V.2 (monotonicity of p-sensitivity)",
        "a definition; its use is checked in 003-Thm-V.7 and 003-Sec-VI.A.3-policy (where it fails)")
