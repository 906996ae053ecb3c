"""Recording from the battle page: forms built from the event types' JSON
Schema, the quick actions of the side to move, refusals, stale forms,
double submits and who may record at all."""
from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import translation

from battles import engine
from battles.access import BattleRole
from battles.log import dice_commit
from battles.models import BattleEvent
from battles.table.choices import Table
from battles.table.forms import EventForm
from battles.table.labels import ENUM_LABELS, FIELD_LABELS, TYPE_FIELD_LABELS
from battles.table.recording import events_allowed

FORCES = [
    {"type": "terrain_placed", "data": {"houses": ["H1"]}},
    {"type": "force_mustered", "data": {"side": "attacker", "units": [{"id": "att-sq", "commander": "a-sgt", "name": "1-е отделение"}],
     "fighters": [{"id": "a-sgt", "unit": "att-sq", "cls": "officer", "rank": "sergeant", "name": "Сержант Шульц"},
                  {"id": "a-r1", "unit": "att-sq", "name": "Стрелок Мюллер"}, {"id": "a-r2", "unit": "att-sq"},
                  {"id": "a-tc", "cls": "officer", "rank": "corporal"}, {"id": "a-tp", "cls": "personnel"}],
     "vehicles": [{"id": "att-tank", "kind": "tank", "armour": 3, "gun": 4, "crew": ["a-tc", "a-tp"],
                   "name": "Pz IV «Берта»"}]}},
    {"type": "force_mustered", "data": {"side": "defender", "units": [{"id": "def-sq", "commander": "d-sgt", "name": "Взвод Орлова"}],
     "fighters": [{"id": "d-sgt", "unit": "def-sq", "cls": "officer", "rank": "sergeant", "name": "Сержант Орлов"},
                  {"id": "d-r1", "unit": "def-sq", "name": "Рядовой Козлов"}, {"id": "d-r2", "unit": "def-sq"},
                  {"id": "d-snp", "cls": "sniper", "name": "Снайпер Зайцев"}]}},
]
START = {"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}}
SIDES = {"attacker": "Вермахт", "defender": "РККА"}


def fold(events):
    state = engine.fold([engine.Event(i, e["type"], e["data"]) for i, e in enumerate(events, 1)], engine.BattleState(),
                        engine.DEFAULT_RULES)
    return engine.state_to_json(state)


def visible_text(html: str) -> str:
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    html = re.sub(r"<option value=\"[^\"]*\"", "<option", html)
    return re.sub(r"<[^>]+>", " ", html)


def schema_keys(schema, out=None):
    out = set() if out is None else out
    for s in schema.get("anyOf", []):
        schema_keys(s, out)
    for k, v in schema.get("properties", {}).items():
        out.add(k)
        schema_keys(v, out)
    if isinstance(schema.get("items"), dict):
        schema_keys(schema["items"], out)
    return out


# --- forms built from the schema ---------------------------------------------------------------
@pytest.mark.parametrize("type_name", sorted(engine.REGISTRY))
@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_event_type_has_a_form_that_renders_with_words_not_keys(type_name, language):
    state = fold([*FORCES, START])
    table = Table(state, "defender", {"def-sq": "Взвод Орлова", "d-r1": "Рядовой Козлов"}, SIDES)
    with translation.override(language):
        form = EventForm(event_type=type_name, table=table, side_choices=[("defender", "РККА")])
        html = Template("{% load record %}{% record_form item panel %}").render(Context(
            {"item": {"id": type_name, "form": form}, "panel": {"action": "/x/", "token": "t"}}))
    text = visible_text(html)
    keys = schema_keys(engine.REGISTRY[type_name].describe()["schema"])
    for key in keys:
        if language == "ru":
            assert not re.search(rf"\b{re.escape(key)}\b", text), f"{type_name}: raw key {key!r} on the page"
        elif "_" in key:
            assert key not in text, f"{type_name}: raw key {key!r} on the page"
    assert "None" not in text and "True" not in text and "False" not in text


def test_every_label_has_a_russian_translation():
    with translation.override("ru"):
        for label in [*FIELD_LABELS.values(), *TYPE_FIELD_LABELS.values(), *ENUM_LABELS.values()]:
            with translation.override("en"):
                english = str(label)
            assert str(label) != english or english in ("v11.2",), f"untranslated: {english!r}"


def test_selects_offer_your_fighters_as_shooters_and_the_enemys_living_fighters_as_targets_by_name():
    state = fold([*FORCES, START])
    table = Table(state, "defender", {"d-r1": "Рядовой Козлов", "a-r1": "Стрелок Мюллер"}, SIDES)
    with translation.override("ru"):
        form = EventForm(event_type="fire", table=table, side_choices=[("defender", "РККА")])
    shooters = dict(form.fields["shooter"].choices)
    struck = dict(form.fields["struck__0__fighter"].choices)
    assert "d-r1" in shooters and "a-r1" not in shooters
    assert "a-r1" in struck and "d-r1" not in struck
    assert shooters["d-r1"].startswith("Рядовой Козлов")
    assert str(shooters["d-r2"]).startswith("Стрелок d-r2")  # no name: a readable label, not the raw id alone


def test_fighters_in_selects_say_their_unit_and_sort_by_number():
    """Two squads each have a «Стрелок №1»: the label says whose; №2 comes before №10."""
    state = fold([*FORCES, START])
    fighters = {fid: f for fid, f in state["fighters"].items() if f["side"] == "defender" and f.get("unit")}
    fids = sorted(fighters)[:2]
    names = {fids[0]: "Стрелок №10", fids[1]: "Стрелок №2", fighters[fids[0]]["unit"]: "1-е отделение"}
    table = Table(state, "defender", names, SIDES)
    with translation.override("ru"):
        labels = [str(label) for _, label in table.fighters("defender")]
    first = next(lab for lab in labels if lab.startswith("Стрелок №10"))
    assert "— 1-е отделение" in first
    assert labels.index(next(lab for lab in labels if lab.startswith("Стрелок №2"))) < labels.index(first)


def test_a_form_payload_keeps_entered_dice_and_asks_the_service_to_roll_the_rest():
    state = fold([*FORCES, START])
    table = Table(state, "defender", {}, SIDES)
    form = EventForm({"fire-shooter": "d-r1", "fire-weapon": "rifle", "fire-target": "fighters", "fire-distance": "6",
                      "fire-visual_contact": "on", "fire-hit__source": "none", "fire-spot__source": "none",
                      "fire-struck__0__fighter": "a-r1", "fire-struck__0__die__source": "entered",
                      "fire-struck__0__die__value": "14", "fire-struck__1__fighter": "a-r2",
                      "fire-struck__1__die__source": "rolled"},
                     event_type="fire", table=table, side_choices=[("defender", "РККА")])
    assert form.is_valid(), form.errors
    p = form.payload()
    assert p["struck"] == [{"fighter": "a-r1", "die": {"value": 14, "source": "entered"}, "light_cover": False,
                            "embrasure": False},
                           {"fighter": "a-r2", "die": {"source": "rolled"}, "light_cover": False, "embrasure": False}]
    assert "hit" not in p and p["distance"] == 6.0 and p["visual_contact"] is True


def test_an_entered_die_without_its_face_is_a_field_error():
    table = Table(fold([*FORCES, START]), "defender", {}, SIDES)
    form = EventForm({"wound_test-fighter": "", "wound_test-die__source": "entered"}, event_type="wound_test",
                     table=table, side_choices=[("defender", "РККА")])
    assert not form.is_valid()
    assert "die__value" in form.errors and "fighter" in form.errors


# --- who may record what, now ------------------------------------------------------------------
def test_onlookers_may_record_nothing():
    assert events_allowed(state=fold([*FORCES, START]), role=BattleRole()) == []


def test_before_the_start_players_get_no_forms_the_game_master_gets_the_setup_types():
    """V-TURN-2..8: the game master musters the forces, which starts the battle."""
    assert events_allowed(state=fold(FORCES), role=BattleRole(side="attacker")) == []
    assert events_allowed(state=fold(FORCES), role=BattleRole(is_game_master=True)) == [
        "terrain_placed", "force_mustered", "battle_started", "correction"]


def test_the_side_to_move_gets_its_actions_and_the_end_of_its_turn():
    state = fold([*FORCES, START])  # V-TURN-8: the defender moves first
    mover = events_allowed(state=state, role=BattleRole(side="defender"))
    other = events_allowed(state=state, role=BattleRole(side="attacker"))
    assert {"postures_declared", "fighters_moved", "fire", "turn_ended"} <= set(mover)
    # V-MORALE-1, V-GUN-4, V-AA-3, V-MINE-2, V-MINE-10, V-MINE-14: what the rules hand to the side not moving
    assert other == ["fire", "morale_test", "mine_triggered", "charge_detonated", "mine_revealed"]
    assert set(other) == engine.ruleset_of("v11.2").off_turn
    assert mover[:5] == ["postures_declared", "fighters_moved", "vehicle_moved", "fire", "turn_ended"]
    assert not {"player_done", "terrain_placed", "force_mustered", "battle_started", "correction"} & set(mover)
    assert "wound_test" in mover and "wound_test" not in other  # V-MED-3: on the owner's own turn


def test_nothing_after_the_end_but_the_masters_correction():
    state = fold([*FORCES, START, {"type": "battle_ended", "data": {"winner": "draw"}}])
    assert events_allowed(state=state, role=BattleRole(side="defender")) == []
    assert events_allowed(state=state, role=BattleRole(is_game_master=True)) == ["correction"]


# --- the page and the POST -------------------------------------------------------------------------
@pytest.fixture
def table_battle(transactional_db):
    """A battle in progress (the defender to move) with one player per side."""
    from django.contrib.auth.models import Group, User

    from battles.models import BattleParticipant
    from battles.services import NewEvent, battle_create, battle_event_append
    from campaign.models import Campaign, Character, Nationality

    campaign = Campaign.objects.create(name="Кампания", attacker_name="Вермахт", defender_name="РККА")
    battle = battle_create(campaign=campaign, name="Бой у моста")
    su = Nationality.objects.get(code="su")
    users = {}
    for username, side in (("olga", "defender"), ("hans", "attacker")):
        user = User.objects.create_user(username=username, password="pw")
        user.groups.add(Group.objects.get(name="player"))
        ch = Character.objects.create(owner=user, name=username.title(), nationality=su)
        BattleParticipant.objects.create(battle=battle, character=ch, side=side)
        users[side] = user
    battle_event_append(battle_id=battle.id, events=[NewEvent(e["type"], e["data"]) for e in [*FORCES, START]],
                        expected_seq=None, as_game_master=True)
    _replayed(battle)
    battle.refresh_from_db()
    return battle, users


def _replayed(battle):
    """The projection caught up with the log, as the worker leaves it (under CI a
    real worker replays asynchronously; replaying here too is idempotent)."""
    from battles.services import battle_replay

    battle_replay(battle_id=battle.id)


def client_for(user):
    from django.test import Client

    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def post(client, battle, form, data, page=None):
    page = page or client.get(f"/battles/{battle.id}/").content.decode()
    body = {"form": form, "expected_seq": hidden(page, "expected_seq"), "token": hidden(page, "token"), **data}
    response = client.post(f"/battles/{battle.id}/record/", body)
    _replayed(battle)
    return response


def last(battle):
    return BattleEvent.objects.filter(battle=battle).order_by("-seq").first()


def declare(client, battle):
    r = post(client, battle, "postures", {"postures-side": "defender", "postures-units__0": "recon"})
    assert r.status_code == 303, r.content.decode()[:3000]


@pytest.mark.django_db(transaction=True)
class TestRecordingFromThePage:
    def test_the_side_to_move_sees_the_quick_panel_and_the_other_side_does_not(self, table_battle):
        battle, users = table_battle
        with translation.override("ru"):
            mine = client_for(users["defender"]).get(f"/battles/{battle.id}/").content.decode()
            theirs = client_for(users["attacker"]).get(f"/battles/{battle.id}/").content.decode()
        assert 'id="rec-quick_fire"' in mine and 'id="rec-postures"' in mine and "«Ход»" in mine
        assert 'id="rec-quick_fire"' not in theirs and '?record=morale_test' in theirs
        assert "Рядовой Козлов" in mine  # names from the roster, in the selects

    def test_postures_then_quick_fire_stores_the_shot_with_dice_rolled_by_the_service(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        assert last(battle).type == "postures_declared" and last(battle).data["units"] == {"def-sq": "recon"}
        r = post(c, battle, "quick_fire", {"quick_fire-shooter": "d-r1", "quick_fire-target": "f:a-r1",
                                           "quick_fire-distance": "7", "quick_fire-die__source": "rolled"})
        ev = last(battle)
        assert r.status_code == 303 and r["Location"].endswith("#record")  # the forms stay in view
        assert ev.type == "fire" and ev.recorded_by == users["defender"]
        assert ev.data["shooter"] == "d-r1" and ev.data["weapon"] == "rifle" and ev.data["target"] == "fighters"
        die = ev.data["struck"][0]["die"]
        assert ev.data["struck"][0]["fighter"] == "a-r1" and die["source"] == "rolled" and die["rng"] == "hmac-sha256"
        battle.refresh_from_db()  # derived from the battle's committed secret (docs/verify.md, "Committed dice")
        assert die["value"] == dice_commit.derive(bytes.fromhex(battle.dice_secret), battle_id=battle.id, seq=ev.seq,
                                                  path=("struck", 0, "die"), sides=20)

    def test_quick_fire_with_an_entered_die_stores_it_as_entered(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        post(c, battle, "quick_fire", {"quick_fire-shooter": "d-r1", "quick_fire-target": "f:a-r2",
                                       "quick_fire-distance": "5", "quick_fire-die__source": "entered",
                                       "quick_fire-die__value": "17"})
        struck = last(battle).data["struck"]
        assert [s["fighter"] for s in struck] == ["a-r2"]
        assert struck[0]["die"]["value"] == 17 and struck[0]["die"]["source"] == "entered"

    def test_quick_fire_at_a_tank_asks_for_the_tank_test(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        # a rifle cannot hurt a tank: V-VDMG-2, refused, but the payload names the hit die
        r = post(c, battle, "quick_fire", {"quick_fire-shooter": "d-r1", "quick_fire-target": "v:att-tank",
                                           "quick_fire-distance": "5", "quick_fire-die__source": "rolled"})
        assert r.status_code == 422 and "V-VDMG-2" in r.content.decode()

    def test_quick_move_moves_the_units_fit_fighters(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        r = post(c, battle, "quick_move", {"quick_move-who": "u:def-sq", "quick_move-distance": "4"})
        assert r.status_code == 303
        ev = last(battle)
        assert ev.type == "fighters_moved"
        assert ev.data["side"] == "defender" and ev.data["fighters"] == ["d-r1", "d-r2", "d-sgt"]
        assert ev.data["distance"] == 4.0

    def test_quick_turn_ends_the_turn_of_the_side_to_move(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        r = post(c, battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"})
        assert r.status_code == 303
        assert last(battle).type == "turn_ended" and last(battle).data == {"side": "defender", "turn": 1}

    def test_v_turn_9_a_refused_action_shows_the_rule_keeps_the_input_and_stores_nothing(self, table_battle):
        battle, users = table_battle
        before = BattleEvent.objects.filter(battle=battle).count()
        with translation.override("ru"):
            r = post(client_for(users["defender"]), battle, "quick_fire",
                     {"quick_fire-shooter": "d-r1", "quick_fire-target": "f:a-r1", "quick_fire-distance": "7.5",
                      "quick_fire-die__source": "rolled"})
        html = r.content.decode()
        assert r.status_code == 422
        assert "V-TURN-9" in html and "Ход начинается с объявления положений" in html
        assert 'value="7.5"' in html and re.search(r'<option value="d-r1" selected>', html)
        assert BattleEvent.objects.filter(battle=battle).count() == before

    def test_a_stale_form_keeps_the_input_shows_the_fresh_state_and_stores_nothing(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        page = c.get(f"/battles/{battle.id}/").content.decode()
        declare(c, battle)  # "the other player" (here: another tab) recorded meanwhile
        head = last(battle).seq
        with translation.override("ru"):
            r = post(c, battle, "quick_move", {"quick_move-who": "u:def-sq", "quick_move-distance": "3.5"},
                     page=page)
        html = r.content.decode()
        assert r.status_code == 409
        assert "записал" in html or "recorded meanwhile" in html
        assert 'value="3.5"' in html and hidden(html, "expected_seq") == str(head)
        assert last(battle).seq == head

    def test_a_double_submit_stores_once(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        page = c.get(f"/battles/{battle.id}/").content.decode()
        data = {"quick_move-who": "f:d-r1", "quick_move-distance": "2"}
        first = post(c, battle, "quick_move", data, page=page)
        again = post(c, battle, "quick_move", data, page=page)
        assert first.status_code == again.status_code == 303 and first["Location"] == again["Location"]
        assert BattleEvent.objects.filter(battle=battle, type="fighters_moved").count() == 1

    @pytest.mark.parametrize("who", ["anonymous", "outsider"])
    def test_onlookers_get_403_and_nothing_is_stored(self, table_battle, who):
        from django.contrib.auth.models import Group, User

        battle, users = table_battle
        user = None
        if who == "outsider":  # a player of the campaign who is not at this table
            user = User.objects.create_user(username="petr", password="pw")
            user.groups.add(Group.objects.get(name="player"))
        before = BattleEvent.objects.filter(battle=battle).count()
        page = client_for(users["defender"]).get(f"/battles/{battle.id}/").content.decode()
        r = client_for(user).post(f"/battles/{battle.id}/record/", {
            "form": "quick_turn", "expected_seq": hidden(page, "expected_seq"), "token": "x",
            "quick_turn-side": "defender", "quick_turn-turn": "1"})
        assert r.status_code == 403
        assert BattleEvent.objects.filter(battle=battle).count() == before
        assert 'id="record"' not in client_for(user).get(f"/battles/{battle.id}/").content.decode()

    def test_the_side_not_moving_may_not_end_the_others_turn(self, table_battle):
        battle, users = table_battle
        before = BattleEvent.objects.filter(battle=battle).count()
        c = client_for(users["attacker"])
        page = c.get(f"/battles/{battle.id}/?record=morale_test").content.decode()  # a form of his, for the seq
        r = post(c, battle, "quick_turn", {"quick_turn-side": "defender", "quick_turn-turn": "1"}, page=page)
        assert r.status_code == 403
        assert BattleEvent.objects.filter(battle=battle).count() == before

    def test_a_field_error_is_named_inline_with_status_400(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        with translation.override("ru"):
            r = post(c, battle, "quick_move", {"quick_move-who": "u:def-sq", "quick_move-distance": "-2"})
        assert r.status_code == 400
        assert "errorlist" in r.content.decode()
