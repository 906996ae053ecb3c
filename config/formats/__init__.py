"""Shtab's date formats (FORMAT_MODULE_PATH): one format per language across
the pages, the admin and the cards — 01.12.2026 and 01.12.2026 14:05 in
Russian, 01 Dec 2026 and 01 Dec 2026 14:05 in English (24-hour clock)."""
