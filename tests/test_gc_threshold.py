"""The processes that keep engine states collect garbage less often (docs/append.md, "Knobs";
bench/HISTORY.md, "Garbage collection"): battles.apps sets the thresholds from SHTAB["GC_THRESHOLD"], which
SHTAB_GC_THRESHOLD overrides."""
import gc
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def test_the_apps_set_the_configured_thresholds_which_collect_less_often_than_pythons_default():
    assert gc.get_threshold() == settings.SHTAB["GC_THRESHOLD"]
    young, middle, old = settings.SHTAB["GC_THRESHOLD"]
    assert young > 700 and middle >= 10 and old >= 10  # Python's default is (700, 10, 10)


def test_the_environment_overrides_them_and_the_default_is_restored_by_naming_it():
    code = ("import django, gc; django.setup(); from django.conf import settings; "
            "print(gc.get_threshold(), settings.SHTAB['GC_THRESHOLD'])")
    env = {k: v for k, v in os.environ.items() if k not in {"SHTAB_GC_THRESHOLD", "DATABASE_URL"}}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.base",
                              "SHTAB_GC_THRESHOLD": "700,10,10"}).stdout
    assert out.strip() == "(700, 10, 10) (700, 10, 10)"
