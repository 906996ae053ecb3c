"""Every string of the roster pages has a Russian translation, none left fuzzy."""
import re
from pathlib import Path

PO = Path(__file__).resolve().parents[2] / "rosters" / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def test_rosters_po_is_complete_and_not_fuzzy():
    text = PO.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = text.split("\n\n")[1:]  # the first block is the header
    untranslated = [e for e in entries if re.search(r'^msgstr(\[\d\])? ""\s*$', e, flags=re.M)
                    and not re.search(r'^msgstr(\[\d\])? ""\n"', e, flags=re.M)]
    assert untranslated == []


def test_compiled_catalog_translates_the_builder(settings):
    from django.utils import translation

    with translation.override("ru"):
        assert translation.gettext("Add crew") == "Добавить в экипаж"
        assert translation.gettext("Submit for battle") == "Подать на бой"
