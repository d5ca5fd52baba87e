"""The Ukrainian and Russian catalogs keep to the players' glossary and to their msgids.

A lint over locale/*/LC_MESSAGES/django.po, so that every page added later follows it too:
no word the glossary bans, the msgid's placeholders kept (a missing one loses a number, an
extra one is a KeyError at render time), nothing fuzzy or untranslated, and the Ukrainian
apostrophe ’ rather than the ASCII one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("uk", "ru")
GLOSSARY = json.loads((Path(__file__).parent / "data" / "glossary_never.json").read_text("utf-8"))

# Python-format placeholders as Django writes them (blocktranslate's {{ x }} becomes %(x)s),
# plus str.format fields; "%%" is a literal percent sign, not a placeholder.
PLACEHOLDER = re.compile(r"%%|%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")
APOSTROPHE_IN_WORD = re.compile(r"\w'\w")


def catalog(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def live_entries(lang: str) -> list[polib.POEntry]:
    return [e for e in catalog(lang) if not e.obsolete]


def translations(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def placeholders(text: str) -> set[str]:
    return {p for p in PLACEHOLDER.findall(text) if p != "%%"}


def banned_words(lang: str, entry: polib.POEntry) -> list[re.Pattern]:
    source = f"{entry.msgid}\n{entry.msgid_plural}"
    patterns = []
    for rule in GLOSSARY["rules"]:
        if rule["lang"] != lang:
            continue
        if rule["concept"] and not re.search(rule["concept"], source, re.IGNORECASE):
            continue
        for variant in rule["variants"]:
            patterns.append(re.compile(rf"(?<!\w){re.escape(variant)}(?!\w)", re.IGNORECASE))
    return patterns


def test_glossary_data_is_well_formed():
    for rule in GLOSSARY["rules"]:
        assert rule["lang"] in LANGUAGES
        assert rule["variants"]
        assert all(v and v.strip() == v for v in rule["variants"])
        if rule["concept"]:
            re.compile(rule["concept"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_the_glossary_bans(lang):
    found = []
    for entry in live_entries(lang):
        for pattern in banned_words(lang, entry):
            for text in translations(entry):
                if match := pattern.search(text):
                    found.append(f"{match.group(0)!r} in {entry.msgid!r}: {text!r}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_keeps_the_placeholders(lang):
    wrong = []
    for entry in live_entries(lang):
        # Every plural form must name what msgid_plural names: in Ukrainian and Russian the
        # "singular" form also serves 21, 31, ..., so it cannot drop the count.
        expected = placeholders(entry.msgid_plural or entry.msgid)
        for text in translations(entry):
            if placeholders(text) != expected:
                wrong.append(f"{entry.msgid!r}: {text!r} has {sorted(placeholders(text))}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_is_fuzzy_or_untranslated(lang):
    entries = live_entries(lang)
    fuzzy = [e.msgid for e in entries if e.fuzzy]
    empty = [e.msgid for e in entries if not all(t.strip() for t in translations(e))]
    assert not fuzzy, f"fuzzy: {fuzzy}"
    assert not empty, f"untranslated: {empty}"


def test_ukrainian_apostrophe_is_typographic():
    wrong = [
        f"{e.msgid!r}: {t!r}"
        for e in live_entries("uk")
        for t in translations(e)
        if APOSTROPHE_IN_WORD.search(t)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_lint_catches_what_it_should():
    """The checks above would fail on the mistakes the glossary was written against."""
    sheet = polib.POEntry(msgid="Download the sheet (JSON)", msgstr="Завантажити розрахунок")
    settlement = polib.POEntry(msgid="The settlement", msgstr="Розрахунок")
    assert any(p.search(sheet.msgstr) for p in banned_words("uk", sheet))
    assert not any(p.search(settlement.msgstr) for p in banned_words("uk", settlement))
    whist = polib.POEntry(msgid="Whists", msgstr="Висти")
    assert any(p.search(whist.msgstr) for p in banned_words("uk", whist))
    assert not any(p.search("вистачає") for p in banned_words("uk", whist))
    assert placeholders("%(a)s пише %(b)s: 100%%") == {"%(a)s", "%(b)s"}
    assert APOSTROPHE_IN_WORD.search("Кав'ярня")
    assert not APOSTROPHE_IN_WORD.search("Кав’ярня")
