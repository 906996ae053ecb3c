"""A client generated from docs/openapi.yaml by openapi-python-client (issue 29)
imports whole and runs a club's workflow against a live server: a token for
each person, the campaigns, a roster exported and imported back, the battle
mustered by the game master, an append by a player (201, then 200 on the
retry), the state, and refusals parsed as the typed ``Error``, never as an
``UnexpectedStatus``."""
from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openapi_python_client", reason="openapi-python-client is in requirements-dev.txt (test tooling)")

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "shtab_generated_client"
# The generator's own config: no formatter run afterwards (ruff may not be on PATH), and a PDF answer read as
# bytes (the generator reads no application/pdf otherwise).
CONFIG = "post_hooks: []\ncontent_type_overrides:\n  application/pdf: application/octet-stream\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package, generated afresh and importable; every module imported."""
    out = tmp_path_factory.mktemp("client")
    (out / "config.yaml").write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path",
                           str(ROOT / "docs" / "openapi.yaml"), "--meta", "none", "--output-path", str(out / PACKAGE),
                           "--config", str(out / "config.yaml")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Unsupported" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        package = importlib.import_module(PACKAGE)
        failed = []
        for module in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
            try:
                importlib.import_module(module.name)
            except Exception as exc:  # each one that does not import is a finding
                failed.append(f"{module.name}: {type(exc).__name__}: {exc}")
        assert not failed, "generated modules that do not import:\n" + "\n".join(failed)
        yield package
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(name: str):
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def _models():
    return importlib.import_module(f"{PACKAGE}.models")


def test_every_generated_module_imports(generated):
    assert len(list(pkgutil.walk_packages(generated.__path__, PACKAGE + "."))) > 50


@pytest.fixture
def club(transactional_db, game_master):
    """A running campaign: ivan (defender) with a submitted roster and hans (attacker) with his, a
    scheduled battle; nobody is at its table yet."""
    from django.contrib.auth.models import Group, User

    from battles.setup.muster import battle_schedule
    from campaign import services
    from campaign.models import Campaign, Nationality
    from tests.battles.conftest import build_roster

    campaign = Campaign.objects.create(name="Кампания клиента", attacker_name="Вермахт", defender_name="РККА")
    people = {}
    for username, side in (("ivan", "defender"), ("hans", "attacker")):
        user = User.objects.create_user(username=username, password="pw-" + username)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=username.title(), rank="lieutenant",
                                              nationality=Nationality.objects.get(code="su"))
        services.membership_assign_side(membership=services.membership_request(campaign=campaign, character=character),
                                        side=side, by=game_master)
        people[username] = (user, character)
    services.campaign_start(campaign=campaign, by=game_master)
    ns = type("Club", (), {})()
    ns.campaign = campaign
    ns.ivan_char, ns.hans_char = people["ivan"][1], people["hans"][1]
    ns.ivan_roster = build_roster(people["ivan"][0], ns.ivan_char, campaign, name="Рота Громова", lieutenant=True)
    ns.hans_roster = build_roster(people["hans"][0], ns.hans_char, campaign, name="Kampfgruppe Weber",
                                  lieutenant=True)
    ns.battle = battle_schedule(user=game_master, campaign=campaign, name="Бой у станции")
    return ns


def test_a_club_workflow_through_the_generated_client(generated, club, live_server):
    models = _models()
    anonymous = generated.Client(base_url=live_server.url, raise_on_unexpected_status=True)

    def login(username: str):
        answer = _api("auth.auth_token_create").sync_detailed(
            client=anonymous, body=models.TokenInRequest(username=username, password="pw-" + username))
        assert answer.status_code == 200, answer.content
        return generated.AuthenticatedClient(base_url=live_server.url, token=answer.parsed.token, prefix="Token",
                                             raise_on_unexpected_status=True)

    wrong = _api("auth.auth_token_create").sync_detailed(
        client=anonymous, body=models.TokenInRequest(username="ivan", password="guess"))
    assert wrong.status_code == 400 and isinstance(wrong.parsed, models.Error)
    assert wrong.parsed.error.code == "invalid_credentials"
    master, ivan, hans = login("master"), login("ivan"), login("hans")

    campaigns = _api("campaigns.campaigns_list").sync(client=ivan)
    assert club.campaign.pk in [c.id for c in campaigns]

    # ivan exports his roster and imports it back as a new draft, then submits that one
    export = _api("rosters.rosters_export_retrieve").sync(roster_id=club.ivan_roster.pk, client=ivan)
    assert isinstance(export, models.RosterExport) and export.name == "Рота Громова"
    imported = _api("rosters.rosters_import_create").sync_detailed(client=ivan, body=models.ImportInRequest(
        character=club.ivan_char.pk, campaign=club.campaign.pk,
        data=models.RosterExportRequest.from_dict(export.to_dict())))
    assert imported.status_code == 201, imported.content
    assert imported.parsed.id != club.ivan_roster.pk and imported.parsed.report.ok
    submitted = _api("rosters.rosters_submit_create").sync(roster_id=imported.parsed.id, client=ivan)
    assert submitted.status == models.RosterStatusEnum.SUBMITTED

    # the game master seats both and musters; a player may not
    for character, roster in ((club.ivan_char.pk, imported.parsed.id), (club.hans_char.pk, club.hans_roster.pk)):
        seated = _api("battles.battles_participants_create").sync_detailed(
            battle_id=club.battle.pk, client=master, body=models.ParticipantInRequest(character=character,
                                                                                      roster=roster))
        assert seated.status_code == 201, seated.content
    refused = _api("battles.battles_muster_create").sync_detailed(battle_id=club.battle.pk, client=ivan,
                                                                  body=models.MusterInRequest())
    assert refused.status_code == 403 and isinstance(refused.parsed, models.Error)
    mustered = _api("battles.battles_muster_create").sync_detailed(battle_id=club.battle.pk, client=master,
                                                                   body=models.MusterInRequest())
    assert mustered.status_code == 201, mustered.content
    head = mustered.parsed.head_seq

    # ivan (the defender moves first) ends his turn; the retry under the same key is answered 200
    append = _api("battles.battles_events_create")
    turn = models.AppendInRequest(expected_seq=head, events=[models.EventInRequest(
        type_="turn_ended", data={"side": "defender", "turn": 1}, key="ivan-turn-1")])
    first = append.sync_detailed(battle_id=club.battle.pk, client=ivan, body=turn)
    assert first.status_code == 201, first.content
    assert [e.seq for e in first.parsed] == [head + 1]
    again = append.sync_detailed(battle_id=club.battle.pk, client=ivan, body=turn)
    assert again.status_code == 200 and [e.seq for e in again.parsed] == [head + 1]

    state = _api("battles.battles_state_retrieve").sync(battle_id=club.battle.pk, client=hans)
    assert state.head_seq == head + 1

    # refusals come back as the typed error: a stale expected_seq, and hans recording the defender's turn
    stale = append.sync_detailed(battle_id=club.battle.pk, client=hans, body=models.AppendInRequest(
        expected_seq=head, events=[models.EventInRequest(type_="turn_ended", data={"side": "attacker", "turn": 1})]))
    assert stale.status_code == 409 and isinstance(stale.parsed, models.Error)
    assert stale.parsed.error.current_seq == head + 1
    not_his = append.sync_detailed(battle_id=club.battle.pk, client=hans, body=models.AppendInRequest(
        expected_seq=head + 1, events=[models.EventInRequest(type_="turn_ended",
                                                             data={"side": "defender", "turn": 2})]))
    assert not_his.status_code == 403 and isinstance(not_his.parsed, models.Error), not_his.content
    assert not_his.parsed.error.code == "not_your_side" and not_his.parsed.error.recorded_by == "defender"
