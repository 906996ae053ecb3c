"""A4 sheet of formulary cards compared with a stored reference image (issue 12),
so a broken layout fails the build.

A sample sheet with fixed data (one card of every kind, no dates from "now",
the bundled font) is rendered to PDF, its first page to PNG by pdftoppm
(poppler-utils), and compared pixel by pixel with
``tests/rosters/reference/cards_sheet.png`` within a tolerance that absorbs
anti-aliasing differences between machines, not a moved or missing card.

To refresh the reference on purpose (after changing the card design), run:

    SHTAB_REFRESH_CARD_REFERENCE=1 .venv/bin/python -m pytest tests/rosters/test_cards_reference.py -p no:cacheprovider

then look at the new PNG before committing it.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.templatetags.static import static
from django.utils import translation
from PIL import Image, ImageChops

from rosters.cards import Card, content_hash
from rosters.cards_pdf import render_pdf

REFERENCE = Path(__file__).parent / "reference" / "cards_sheet.png"
DPI = 50
MEAN_TOLERANCE = 2.0  # mean absolute difference of grey levels (0–255) over the page
PIXEL_TOLERANCE = 0.004  # share of pixels allowed to differ by more than 96 grey levels

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None and not os.environ.get("CI"),
                                reason="pdftoppm (poppler-utils) is not installed")


def sample_cards() -> list[Card]:
    su, infantry = static("cards/emblems/nation-su.svg"), static("cards/emblems/arm-infantry.svg")

    def card(**kw) -> Card:
        c = Card(**kw)
        c.facts = {"kind": c.kind, "title": c.title, "lines": c.lines}
        c.stamp_record, c.stamp_version, c.stamp_hash = "Ростер №1", "01.12.2026 12:00", content_hash(c.facts)
        return c

    return [
        card(kind="character", label="Персонаж", title="Иван Громов", subtitle="Лейтенант", nation="СССР",
             nation_mark=su, lines=["Награды: Медаль «За отвагу»"], background="#fdf8ea", ink="#2a2418",
             back_title="Награды", back=["01.12.2026 — Медаль «За отвагу»"]),
        card(kind="unit", label="Пехотное отделение", title="1-е отделение", subtitle="3-я стрелковая дивизия",
             marking="№ 1", lines=["1 × Сержант", "6 × Стрелок"], badges=["7 бойцов"], cost="23 ОП",
             nation="СССР", nation_mark=su, emblem=infantry, background="#cfe3c2", ink="#1f2a17"),
        card(kind="vehicle", label="Танк", title="«За Родину!»", subtitle="3-я стрелковая дивизия", marking="№ 1",
             lines=["Класс брони 3", "Класс орудия 3", "Экипаж: 2 × Личный состав"], badges=["Корректировщик"],
             boxes=[("Повреждения", 2), ("Ходовая", 1), ("Боекомплект", 6)], cost="9 ОП", nation="СССР",
             nation_mark=su, emblem=static("cards/emblems/arm-motorised.svg"), background="#e6e8e3"),
        card(kind="upgrade", label="Улучшение", title="Гранаты", subtitle="1-е отделение", lines=["Связки гранат"],
             cost="2 ОП", nation="СССР", nation_mark=su, background="#eae4f2"),
        card(kind="award", label="Награда", title="Медаль «За отвагу»", subtitle="Лейтенант Иван Громов",
             lines=["Вручена 01.12.2026"], nation="СССР", nation_mark=su,
             emblem=static("cards/emblems/award.svg"), background="#f7edd2"),
        card(kind="air_support", label="Авиаподдержка", title="Авиаподдержка", marking="№ 1",
             lines=["1 вылет за бой"], boxes=[("Вылет", 1)], cost="8 ОП", nation="СССР", nation_mark=su,
             emblem=static("cards/emblems/arm-air.svg"), background="#dde7f3",
             back_title="Как действует", back=["Атака разыгрывается как удар тяжёлой гаубицы (G-7)."]),
    ]


def to_png(cards: list[Card], tmp_path: Path) -> Image.Image:
    with translation.override("ru"):
        pdf = render_pdf(cards, layout="a4", title="Образец")
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-png", "-singlefile",
                    str(tmp_path / "sheet.pdf"), str(tmp_path / "sheet")], check=True)
    return Image.open(tmp_path / "sheet.png").convert("L")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean grey-level difference, share of pixels differing by more than 96)."""
    assert a.size == b.size, f"page size {a.size} differs from the reference's {b.size}"
    diff = ImageChops.difference(a, b)
    histogram = diff.histogram()
    pixels = a.size[0] * a.size[1]
    mean = sum(level * count for level, count in enumerate(histogram)) / pixels
    return mean, sum(histogram[97:]) / pixels


def test_the_sample_sheet_matches_the_reference_image(tmp_path):
    image = to_png(sample_cards(), tmp_path)
    if os.environ.get("SHTAB_REFRESH_CARD_REFERENCE"):
        REFERENCE.parent.mkdir(exist_ok=True)
        image.save(REFERENCE, optimize=True)
        pytest.skip(f"reference refreshed: {REFERENCE}")
    mean, share = difference(image, Image.open(REFERENCE).convert("L"))
    assert mean <= MEAN_TOLERANCE and share <= PIXEL_TOLERANCE, (
        f"the card sheet differs from {REFERENCE.name} (mean {mean:.2f}, {share:.2%} of pixels); if the design "
        f"changed on purpose, refresh it: SHTAB_REFRESH_CARD_REFERENCE=1 pytest {Path(__file__).name}")


def test_a_broken_layout_fails_the_comparison(tmp_path):
    """The tolerance is tight enough to catch a card out of place."""
    cards = sample_cards()
    cards[1], cards[2] = cards[2], cards[1]
    mean, share = difference(to_png(cards, tmp_path), Image.open(REFERENCE).convert("L"))
    assert mean > MEAN_TOLERANCE or share > PIXEL_TOLERANCE
