"""The Ukrainian and Russian catalogs keep to the players' glossary and to their msgids.

A lint over locale/*/LC_MESSAGES/django.po, so that every page added later follows it too:
no word the glossary bans, the msgid's placeholders kept (a missing one loses a number, an
extra one is a KeyError at render time), nothing fuzzy or untranslated, and the Ukrainian
apostrophe ’ rather than the ASCII one.

And a lint over the code: every msgid that makemessages extracts (xgettext with Django's
keywords over the .py files and the templatized templates) is in both catalogs, translated;
and no string hides from that extraction behind a name xgettext does not know (an alias such
as `gettext_lazy as _lazy`, or an f-string, which is formatted before it is looked up).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("uk", "ru")
GLOSSARY = json.loads((Path(__file__).parent / "data" / "glossary_never.json").read_text("utf-8"))

# Python-format placeholders as Django writes them (blocktranslate's {{ x }} becomes %(x)s),
# plus str.format fields; "%%" is a literal percent sign, not a placeholder.
PLACEHOLDER = re.compile(r"%%|%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")
APOSTROPHE_IN_WORD = re.compile(r"\w'\w")


def catalog(lang: str, domain: str = "django") -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))


def live_entries(lang: str) -> list[polib.POEntry]:
    """The pages' words and the scripts' (djangojs: static/js, through JavaScriptCatalog)."""
    entries = [e for e in catalog(lang) if not e.obsolete]
    return entries + [e for e in catalog(lang, "djangojs") if not e.obsolete]


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


# --- the code's msgids -------------------------------------------------------------------------

# What `manage.py makemessages` passes to xgettext for the "django" domain (its keywords are not
# exposed as a constant), after xgettext's own Python ones (gettext, ngettext, _ ...).
XGETTEXT = [
    "xgettext",
    "--language=Python",
    "--from-code=UTF-8",
    "--keyword=gettext_noop",
    "--keyword=gettext_lazy",
    "--keyword=ngettext_lazy:1,2",
    "--keyword=pgettext:1c,2",
    "--keyword=npgettext:1c,2,3",
    "--keyword=pgettext_lazy:1c,2",
    "--keyword=npgettext_lazy:1c,2,3",
]
# The names under which django.utils.translation's functions may be imported: exactly those
# that xgettext, called as above, recognises (with `_` for the one everyday function).
EXTRACTED_NAMES = {
    "gettext": {"gettext", "_"},
    "gettext_lazy": {"gettext_lazy", "_"},
    "gettext_noop": {"gettext_noop"},
    "ngettext": {"ngettext"},
    "ngettext_lazy": {"ngettext_lazy"},
    "pgettext": {"pgettext"},
    "pgettext_lazy": {"pgettext_lazy"},
    "npgettext": {"npgettext"},
    "npgettext_lazy": {"npgettext_lazy"},
}
# How many leading arguments of each are msgids or contexts (the rest are counts or values).
TEXT_ARGUMENTS = {"_": 1, "gettext": 1, "gettext_lazy": 1, "gettext_noop": 1, "ngettext": 2}
TEXT_ARGUMENTS |= {"ngettext_lazy": 2, "pgettext": 2, "pgettext_lazy": 2}
TEXT_ARGUMENTS |= {"npgettext": 3, "npgettext_lazy": 3}
# Where the site's code and templates live; tests, benchmarks and the venv are not the site.
NOT_CODE = {"tests", "bench", "build", "locale", "static", "staticfiles"}


def code_files() -> tuple[list[Path], list[Path]]:
    """The .py files and the templates (.html, .txt: makemessages' extensions) of the site."""
    python, templates = [ROOT / "manage.py"], []
    for top in sorted(ROOT.iterdir()):
        if not top.is_dir() or top.name.startswith(".") or top.name in NOT_CODE:
            continue
        if (top / "__init__.py").exists():
            python += sorted(top.rglob("*.py"))
        templates += sorted(p for p in top.rglob("*") if p.suffix in {".html", ".txt"})
    return python, templates


def shown_path(path: str) -> str:
    return str(Path(path).relative_to(ROOT)) if Path(path).is_relative_to(ROOT) else path


def extract(python: list[Path], templates: list[Path], work: Path) -> polib.POFile:
    """The msgids that makemessages would extract from these files, as a .pot."""
    if shutil.which("xgettext") is None:
        pytest.fail("xgettext is missing: install gettext (make messages needs it too)")
    inputs = [str(p) for p in python]
    origins = {}
    for n, template in enumerate(templates):
        # Each template as Python, the way makemessages feeds it to xgettext.
        work_file = work / f"{n}_{template.name}.py"
        work_file.write_text(templatize(template.read_text("utf-8"), origin=str(template)))
        inputs.append(str(work_file))
        origins[str(work_file)] = str(template)
    listing = work / "files.txt"
    listing.write_text("\n".join(inputs))
    pot = work / "django.pot"
    subprocess.run(
        [*XGETTEXT, "--files-from", str(listing), "--output", str(pot)],
        check=True,
        capture_output=True,
    )
    if not pot.exists():  # xgettext writes nothing when it finds no msgid
        return polib.POFile()
    extracted = polib.pofile(str(pot))
    for entry in extracted:
        entry.occurrences = [
            (shown_path(origins.get(path, path)), line) for path, line in entry.occurrences
        ]
    return extracted


def missing_from(pot: polib.POFile, po: polib.POFile) -> list[str]:
    """Each msgid of `pot` that `po` lacks, leaves untranslated or marks fuzzy, with its place."""
    known = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    problems = []
    for wanted in pot:
        where = ", ".join(f"{path}:{line}" for path, line in wanted.occurrences[:2])
        entry = known.get((wanted.msgctxt, wanted.msgid))
        if entry is None:
            problems.append(f"missing {wanted.msgid!r} ({where})")
        elif entry.fuzzy or not all(t.strip() for t in translations(entry)):
            problems.append(f"untranslated {wanted.msgid!r} ({where})")
        elif bool(entry.msgid_plural) != bool(wanted.msgid_plural):
            problems.append(f"plural forms differ for {wanted.msgid!r} ({where})")
    return problems


@pytest.fixture(scope="module")
def code_catalog(tmp_path_factory) -> polib.POFile:
    return extract(*code_files(), tmp_path_factory.mktemp("messages"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_msgid_in_the_code_is_translated(code_catalog, lang):
    assert len(code_catalog) > 1000  # the extraction saw the site, not an empty directory
    problems = missing_from(code_catalog, catalog(lang))
    assert not problems, "\n".join(problems)


def hidden_strings(source: str) -> list[str]:
    """Translation functions imported under a name xgettext does not extract, and calls that
    pass something other than a literal string where the msgid goes."""
    problems = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            for alias in node.names:
                allowed = EXTRACTED_NAMES.get(alias.name)
                if allowed is not None and (alias.asname or alias.name) not in allowed:
                    problems.append(f"line {node.lineno}: {alias.name} as {alias.asname}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "django.utils.translation" and alias.asname:
                    problems.append(f"line {node.lineno}: import {alias.name} as {alias.asname}")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            for argument in node.args[: TEXT_ARGUMENTS.get(name, 0)]:
                if not (isinstance(argument, ast.Constant) and isinstance(argument.value, str)):
                    problems.append(f"line {node.lineno}: {name}({ast.unparse(argument)})")
    return problems


def test_no_string_hides_from_makemessages():
    python, _templates = code_files()
    found = [
        f"{path.relative_to(ROOT)} {problem}"
        for path in python
        for problem in hidden_strings(path.read_text("utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_code_lint_catches_what_it_should(tmp_path):
    """The alias that hid four strings from the catalogs, an f-string, and a msgid the
    catalog lacks are each found; a plain `_` or `gettext_lazy as _` is not."""
    aliased = "from django.utils.translation import gettext_lazy as _lazy\nx = _lazy('a')\n"
    assert hidden_strings(aliased) == ["line 1: gettext_lazy as _lazy"]
    assert hidden_strings("from django.utils import translation as t\n") == []
    assert hidden_strings("import django.utils.translation as t\n") != []
    assert hidden_strings("x = _(f'{n} deals')\n") == ["line 1: _(f'{n} deals')"]
    assert hidden_strings("x = ngettext('one deal', plural, n)\n") == ["line 1: ngettext(plural)"]
    assert hidden_strings("from django.utils.translation import gettext_lazy as _\n") == []

    code = tmp_path / "code.py"
    code.write_text(
        "from django.utils.translation import gettext_lazy as _lazy, pgettext\n"
        "a = _lazy('hidden')\nb = pgettext('deal', 'Pass')\n"
    )
    page = tmp_path / "page.html"
    page.write_text(
        "{% load i18n %}{% translate 'Seen' %}{% blocktranslate %}Also {{ x }}"
        "{% endblocktranslate %}"
    )
    pot = extract([code], [page], tmp_path)
    assert {(e.msgctxt, e.msgid) for e in pot} == {
        ("deal", "Pass"),
        (None, "Seen"),
        (None, "Also %(x)s"),
    }
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Seen", msgstr="Видно"))
    po.append(polib.POEntry(msgid="Also %(x)s", msgstr=""))
    assert missing_from(pot, po) == [
        f"missing 'Pass' ({code}:3)",
        f"untranslated 'Also %(x)s' ({page}:1)",
    ]
