"""The project's shape and settings: embedded default, production fail-fast,
i18n, and the engine's purity."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **env):
    full = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY",
                                                             "DJANGO_ALLOWED_HOSTS", "CI"}}
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120)


def test_embedded_default_is_sqlite_and_eager_celery():
    r = run_python("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.base'; django.setup();"
                   "from django.conf import settings as s;"
                   "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.LANGUAGE_CODE)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["django.db.backends.sqlite3", "True", "ru"]


def test_environment_switches_to_postgresql_and_redis():
    r = run_python("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.base'; django.setup();"
                   "from django.conf import settings as s;"
                   "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL)",
                   DATABASE_URL="postgres://u@db:5432/x", REDIS_URL="redis://cache:6379/0")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["django.db.backends.postgresql", "False", "redis://cache:6379/0"]


def test_production_refuses_to_start_without_a_secret_key():
    r = run_python("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production'; django.setup()",
                   DJANGO_ALLOWED_HOSTS="shtab.example")
    assert r.returncode != 0 and "DJANGO_SECRET_KEY" in r.stderr


def test_production_passes_check_deploy():
    env = {k: v for k, v in os.environ.items() if k not in {"CI"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_SECRET_KEY="x" * 64 + "-Shtab!9",
               DJANGO_ALLOWED_HOSTS="shtab.example")
    r = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_ci_settings_refuse_the_embedded_fallback():
    r = run_python("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.test'; django.setup()",
                   CI="true")
    assert r.returncode != 0 and "CI=true needs DATABASE_URL" in r.stderr


def test_the_engine_imports_no_django_and_no_app():
    """The engine is pure: no Django, DRF, Celery or app import (STYLE 1)."""
    banned = ("django", "rest_framework", "celery", "campaign", "rosters", "config", "battles.models",
              "battles.services")
    offenders = []
    for path in (ROOT / "battles" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in banned
                          or any(n.startswith(b) for b in banned)]
    assert offenders == []


def test_the_engine_runs_in_a_process_without_django():
    r = run_python("import sys; sys.modules['django'] = None\n"
                   "from battles import engine\n"
                   "s = engine.fold([engine.Event(1, 'battle_started', {'attacker': 'A', 'defender': 'D'})])\n"
                   "print(s.status)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "running"


@pytest.mark.django_db
class TestPages:
    def test_home_lists_campaigns_in_russian_by_default(self, client, battle):
        r = client.get("/")
        assert r.status_code == 200
        assert "Кампании" in r.content.decode()
        assert battle.campaign.name in r.content.decode()

    def test_language_switch_renders_english(self, client, battle):
        r = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
        assert r.status_code == 200
        html = r.content.decode()
        assert "Campaigns" in html and "Кампании" not in html

    def test_battle_page_shows_the_log_and_state(self, client, battle):
        from battles.services import NewEvent, battle_event_append, battle_replay

        battle_event_append(battle_id=battle.id, expected_seq=0, events=[
            NewEvent("battle_started", {"attacker": "Вермахт", "defender": "РККА"})])
        battle_replay(battle_id=battle.id)
        html = client.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        # the log reads as a sentence, never as the raw event type
        assert "Журнал боя" in html and "Бой начался: Вермахт атакуют" in html and "battle_started" not in html

    def test_campaign_page(self, client, battle):
        html = client.get(f"/campaigns/{battle.campaign_id}/").content.decode()
        assert battle.name in html


def test_openapi_schema_file_is_current():
    """docs/openapi.yaml is what `make schema` generates (keep it current)."""
    env = {k: v for k, v in os.environ.items() if k not in {"CI"}}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    r = subprocess.run([sys.executable, "manage.py", "spectacular", "--validate"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (ROOT / "docs" / "openapi.yaml").read_text() == r.stdout, "run `make schema` and commit docs/openapi.yaml"


@pytest.mark.django_db(transaction=True)
def test_loaddemo_is_idempotent_and_has_a_played_battle(replay_worker):
    from django.core.management import call_command

    from battles.models import Battle, BattleEvent
    from campaign.models import CampaignEvent, Proposal

    call_command("loaddemo")
    played = Battle.objects.get(number=1, campaign__ruleset="v11.2")
    assert replay_worker.wait(played.id, played.head_seq) is not None
    counts = (BattleEvent.objects.count(), CampaignEvent.objects.count(), Battle.objects.count())
    call_command("loaddemo")
    assert (BattleEvent.objects.count(), CampaignEvent.objects.count(), Battle.objects.count()) == counts
    assert played.events.filter(type="battle_ended").exists() and played.head_seq > 10
    proj = replay_worker.wait(played.id, played.head_seq)
    assert proj.state["status"] == "ended"
    import time

    deadline = time.monotonic() + 30
    while not Proposal.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert Proposal.objects.filter(status="pending").exists()


@pytest.mark.django_db
def test_battle_report_tells_the_demo_battle_turn_by_turn_with_its_final_state(client):
    from django.core.management import call_command

    from battles.models import Battle

    call_command("loaddemo")
    battle = Battle.objects.get(number=1, campaign__ruleset="v11.2")
    from battles.services import battle_replay

    battle_replay(battle_id=battle.id)
    html = client.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ход 1" in html and "Ход 2" in html
    assert "«Ход»: РККА завершили ход 1." in html  # the campaign's side names
    import re

    rows = re.findall(r"<tr><td>(РККА|Вермахт)</td>\s*<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>", html)
    # by hand, from the demo's rosters: the defender mustered Ivan's lieutenant and squad (1 + 10) and Petr's
    # squad (10) and lost none; the attacker mustered Hans's lieutenant and squad (1 + 10) and lost hans-s1-f2
    # and hans-s1-f3 (two wounds each, V-MED-1)
    assert ("РККА", "21", "21", "0", "0") in rows and ("Вермахт", "11", "9", "0", "2") in rows


@pytest.mark.parametrize("po", sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("*/locale/ru/LC_MESSAGES/django.po")))
def test_every_russian_catalog_is_complete_and_not_fuzzy(po):
    import re

    text = (ROOT / po).read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]  # the first block is the header
    assert not [e for e in entries if "#, fuzzy" in e]
    untranslated = [e for e in entries if re.search(r'^msgstr(\[\d\])? ""\s*$', e, flags=re.M)
                    and not re.search(r'^msgstr(\[\d\])? ""\n"', e, flags=re.M)]
    assert untranslated == [], f"{po}: run makemessages and translate"



@pytest.mark.django_db
def test_loaddemo_has_a_fow_armoured_train_battle_mustered_from_fow_rosters_and_played_through_the_services():
    from django.core.management import call_command

    from battles.models import Battle
    from battles.services import battle_replay
    from rosters.selectors import roster_validate

    call_command("loaddemo")
    battle = Battle.objects.get(campaign__ruleset="fow")
    head = battle.head_seq
    call_command("loaddemo")
    battle.refresh_from_db()
    assert battle.head_seq == head == 16, "idempotent: mustered and played once"
    types = list(battle.events.order_by("seq").values_list("type", flat=True))
    assert types[:3] == ["force_mustered", "force_mustered", "battle_started"]
    assert {"team_moved", "team_shot", "dig_in_attempted", "turn_ended", "railway_line_laid",
            "train_entered"} <= set(types)
    assert all(roster_validate(roster=p.roster).ok for p in battle.participants.select_related("roster"))
    battle_replay(battle_id=battle.id)
    battle.projection.refresh_from_db()
    state = battle.projection.state
    assert state["status"] == "running" and state["trains"]["ivan-p1"]["escorts"] == ["ivan-p2"]
    assert state["trains"]["ivan-p1"]["where"] == "on_table", "the train steamed in along its line (F-TRAIN-14)"
    assert state["teams"]["hans-p1-t2"]["dug_in"] and state["teams"]["hans-p1-t2"]["double_ply"] == 0
