"""The claim catalogue (verify/claims/catalogue/<seed>.toml): the papers' statements as data, tied both
ways to the checks of verify.claims.sets (verify.claims.registry.claim, catalogue, load_registry)."""

from __future__ import annotations

import importlib.resources
import tomllib
from importlib.resources import files

import pytest

import verify.claims.registry as R
from verify.claims import CheckKind, ClaimResult, Registry, Verdict

_ENTRY = 'section = "Sec. 1"\nstatement = "x <= 1"\nkind = "numeric"\n'


def _ok(ctx):  # a check that never runs in these tests
    return ClaimResult(Verdict.VERIFIED, "ok")


def test_every_catalogue_entry_has_a_check_and_keeps_its_metadata():
    reg = R.load_registry()
    cat = R.catalogue()
    assert R.unchecked_catalogue_entries() == []
    assert len(cat) >= 100
    for cid, meta in cat.items():
        c = reg.get(cid)
        assert (c.seed, c.section, c.statement, c.kind, c.code, c.tags) == (
            meta["seed"], meta["section"], meta["statement"], meta["kind"], meta["code"], meta["tags"])
        assert c.check.__module__.startswith("verify.claims.sets.")


def test_catalogue_files_are_read_as_written_per_seed():
    folder = files("verify.claims").joinpath("catalogue")
    names = sorted(f.name for f in folder.iterdir() if f.name.endswith(".toml"))
    assert {"000.toml", "002.toml", "003.toml", "004.toml"} <= set(names)
    assert all(n.split(".", 1)[0] in R.SEEDS for n in names)  # <seed>.toml or <seed>.<topic>.toml
    raw = tomllib.loads(folder.joinpath("003.toml").read_text(encoding="utf-8"))
    c = R.load_registry().get("003-Thm-V.4")
    assert c.statement == raw["003-Thm-V.4"]["statement"]
    assert c.kind is CheckKind.PROPERTY and raw["003-Thm-V.4"]["kind"] == "property"


def test_a_catalogue_id_without_keywords_registers_from_the_catalogue():
    reg = Registry()
    R.claim("003-Thm-V.4", registry=reg)(_ok)
    c = reg.get("003-Thm-V.4")
    assert c.section == R.catalogue()["003-Thm-V.4"]["section"] and c.check is _ok


def test_a_check_without_a_catalogue_entry_is_refused():
    with pytest.raises(ValueError, match="has no entry in verify/claims/catalogue/"):
        R.claim("004-Lemma-99.9-nowhere", registry=Registry())


def test_an_id_both_in_the_catalogue_and_stated_in_code_is_refused():
    with pytest.raises(ValueError, match="listed in verify/claims/catalogue/ and also stated in code"):
        R.claim("003-Thm-V.4", seed="003", section="s", statement="t", kind=CheckKind.NUMERIC, registry=Registry())


def test_a_claim_stated_in_code_needs_all_its_keywords_and_still_works():
    with pytest.raises(TypeError, match=r"needs the keywords \['kind', 'statement'\]"):
        R.claim("004-Test-partial", seed="004", section="s")
    reg = Registry()
    R.claim("004-Test-in-code", seed="004", section="s", statement="t", kind=CheckKind.NUMERIC, code="m.py",
            tags=("x",), registry=reg)(_ok)
    c = reg.get("004-Test-in-code")
    assert (c.section, c.statement, c.code, c.tags) == ("s", "t", "m.py", ("x",))


def test_a_catalogue_entry_without_a_check_fails_loading(monkeypatch):
    monkeypatch.setattr(R, "_CATALOGUE", {**R.catalogue(), **R.parse_catalogue("004", '["004-Test-orphan"]\n' + _ENTRY)})
    monkeypatch.setattr(R, "_LOADED", False)
    with pytest.raises(ValueError, match=r"catalogue entries without a check .*004-Test-orphan"):
        R.load_registry()


def test_parse_catalogue_parses_an_entry():
    e = R.parse_catalogue("002", '["002-Lemma-1"]\n' + _ENTRY + 'code = "a.py"\ntags = ["planted"]\n')["002-Lemma-1"]
    assert e == {"seed": "002", "section": "Sec. 1", "statement": "x <= 1", "kind": CheckKind.NUMERIC,
                 "code": "a.py", "tags": ("planted",)}


@pytest.mark.parametrize(("seed", "text", "match"), [
    ("005", '["005-X"]\n' + _ENTRY, "seed must be one of"),
    ("002", '["004-X"]\n' + _ENTRY, "must start with its seed '002'-"),
    ("002", '["002-X"]\nsection = "s"\nkind = "numeric"\n', r"lacks keys \['statement'\]"),
    ("002", '["002-X"]\n' + _ENTRY + 'statment = "typo"\n', r"unknown keys \['statment'\]"),
    ("002", '["002-X"]\nsection = "s"\nstatement = "t"\nkind = "guess"\n', "kind must be one of"),
    ("002", '["002-X"]\nsection = 3\nstatement = "t"\nkind = "numeric"\n', "section must be a string"),
    ("002", '["002-X"]\n' + _ENTRY + 'tags = "planted"\n', "tags must be a list of strings"),
    ("002", '"002-X" = "not a table"\n', "must be a table"),
])
def test_parse_catalogue_rejects_bad_entries(seed, text, match):
    with pytest.raises(ValueError, match=match):
        R.parse_catalogue(seed, text)


def test_an_id_listed_twice_is_refused():
    with pytest.raises(ValueError, match="catalogue 002: not valid TOML"):
        R.parse_catalogue("002", '["002-X"]\n' + _ENTRY + '\n["002-X"]\n' + _ENTRY)


def test_an_id_listed_in_two_catalogue_files_is_refused(monkeypatch, tmp_path):
    (tmp_path / "004.toml").write_text('["004-Test-twice"]\n' + _ENTRY)
    (tmp_path / "004.extra.toml").write_text('["004-Test-twice"]\n' + _ENTRY)

    class _Files:
        def joinpath(self, name):
            return tmp_path

    monkeypatch.setattr(importlib.resources, "files", lambda pkg: _Files())
    monkeypatch.setattr(R, "_CATALOGUE", None)
    with pytest.raises(ValueError, match=r"004.toml: claim ids listed in another catalogue file too: \['004-Test-twice'\]"):
        R.catalogue()
