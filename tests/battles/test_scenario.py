"""A complete small battle appended through the HTTP API and replayed by the
Celery task (eager here, a real worker under CI): two squads, a tank, a house,
a medic, a morale test and a capture. The expected outcomes below were worked
out by hand from the v11.2 rules (comments cite the catalog IDs)."""
import pytest

D = lambda v: {"value": v, "source": "entered"}  # noqa: E731


def F(fid, unit="", cls="rifleman", rank="", **kw):  # noqa: N802
    return {"id": fid, "unit": unit, "cls": "officer" if rank and cls == "rifleman" else cls, "rank": rank, **kw}


SETUP = [
    {"type": "terrain_placed", "data": {"houses": ["H"]}},
    {"type": "force_mustered", "data": {"side": "attacker", "units": [{"id": "A", "commander": "a_sgt", "posture": "recon"}],
     "fighters": [F("a_sgt", "A", rank="sergeant", character="char-sgt-ivanov"), F("a1", "A"),
                  F("a2", "A", character="char-pvt-petrov"), F("a3", "A"), F("a_med", "A", "medic", character="char-medic"),
                  F("a_tc", rank="corporal", character="char-cpl-tankist"), F("a_tp", cls="personnel")],
     "vehicles": [{"id": "T34", "kind": "tank", "armour": 3, "gun": 4, "weapon": "gun", "crew": ["a_tc", "a_tp"]}]}},
    {"type": "force_mustered", "data": {"side": "defender", "units": [{"id": "D", "commander": "d_sgt", "posture": "dug_in"}],
     "fighters": [F("d_sgt", "D", rank="sergeant"), F("d1", "D", character="char-d1"), F("d2", "D", building="H"),
                  F("d3", "D"), F("d_at", "D", "at_grenadier"), F("d_tc", rank="corporal"), F("d_tp", cls="personnel")],
     "vehicles": [{"id": "PzIV", "kind": "tank", "armour": 4, "gun": 4, "weapon": "gun", "crew": ["d_tc", "d_tp"]}]}},
    {"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}},
]

# Turn 1, defender (moves first, V-TURN-8)
DEFENDER_1 = [
    {"type": "postures_declared", "data": {"side": "defender", "units": {"D": "dug_in"}}},
    # d1 fires at a1: 14 + 0 - 0 >= 11 -> a1 wounded (G-2, V-TEST-1)
    {"type": "fire", "data": {"shooter": "d1", "weapon": "rifle", "target": "fighters", "distance": 6,
                              "struck": [{"fighter": "a1", "die": D(14)}]}},
    # AT grenade at the tank: tank test 9 -> miss (V-TEST-8)
    {"type": "fire", "data": {"shooter": "d_at", "weapon": "at_grenade_launcher", "target": "vehicle",
                              "target_id": "T34", "distance": 5, "hit": D(9)}},
    {"type": "turn_ended", "data": {"side": "defender", "turn": 1}},
]

# Turn 1, attacker
ATTACKER_1 = [
    {"type": "postures_declared", "data": {"side": "attacker", "units": {"A": "assault"}}},
    # a1's wound test 7 fails; the medic 3" away allows a re-roll: 15 -> recovered (V-MED-3, V-MED-4)
    {"type": "wound_test", "data": {"fighter": "a1", "die": D(7), "medic": "a_med", "medic_distance": 3,
                                    "reroll": D(15)}},
    # the tank shoots d2 in the house: spotting 13 passes (V-HOUSE-9), hit 12 kills one man (V-GUN-3)
    {"type": "fire", "data": {"shooter": "T34", "weapon": "gun", "target": "fighters", "distance": 10,
                              "spot": D(13), "hit": D(12), "struck": [{"fighter": "d2"}]}},
    # a2 wounds d1: 16 >= 11
    {"type": "fire", "data": {"shooter": "a2", "weapon": "rifle", "target": "fighters", "distance": 7,
                              "struck": [{"fighter": "d1", "die": D(16)}]}},
    # melee a3 vs d3 at 1": 12 vs 8, d3 loses and is wounded (V-MELEE-2)
    {"type": "melee", "data": {"attacker": "a3", "defender": "d3", "distance": 1,
                               "rolls": [{"attacker": D(12), "defender": D(8)}]}},
    {"type": "turn_ended", "data": {"side": "attacker", "turn": 1}},
]

# Turn 2, defender
DEFENDER_2 = [
    {"type": "postures_declared", "data": {"side": "defender", "units": {"D": "dug_in"}}},
    # squad D is 12.5" from its sergeant, outside every officer's command distance: morale 8 -> retreat (V-TEST-4)
    {"type": "morale_test", "data": {"unit": "D", "die": D(8), "officer_distances": {"d_sgt": 12.5}}},
    {"type": "wound_test", "data": {"fighter": "d1", "die": D(4)}},  # fails: stays wounded (G-10)
    {"type": "wound_test", "data": {"fighter": "d3", "die": D(11)}},  # recovers
    {"type": "turn_ended", "data": {"side": "defender", "turn": 2}},
]

# Turn 2, attacker
ATTACKER_2 = [
    {"type": "postures_declared", "data": {"side": "attacker", "units": {"A": "assault"}}},
    # a2 at 1" of the wounded d1, no fit enemy within 4" (d3 at 5"): prisoner (V-POW-1)
    {"type": "prisoner_taken", "data": {"captor": "a2", "prisoner": "d1", "distance": 1, "nearest_fit_enemy": 5}},
    # a1 (recovered last turn, all functions again, V-MED-6) wounds d3: 11 >= 11
    {"type": "fire", "data": {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": 8,
                              "struck": [{"fighter": "d3", "die": D(11)}]}},
    # the T-34's gun (class 4) vs the PzIV (armour 4): tank test 17 -> 1 damage + running gear (V-TEST-10, V-VDMG-3)
    {"type": "fire", "data": {"shooter": "T34", "weapon": "gun", "target": "vehicle", "target_id": "PzIV",
                              "distance": 14, "hit": D(17)}},
    # five of squad A all round it within 2", no defender within 8": capture test 13 (V-CAPT-1..5, V-CAPT-7)
    {"type": "capture_attempted", "data": {"vehicle": "PzIV", "surrounded": True, "nearest_friendly": 9.0,
                                           "infantry": {"a_sgt": 1.0, "a1": 1.5, "a2": 2.0, "a3": 0.5, "a_med": 2.0},
                                           "die": D(13)}},
    {"type": "battle_ended", "data": {"winner": "attacker", "reason": "Оборона сломлена"}},
]


def post(client, battle, events, expected_seq):
    r = client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": expected_seq, "events": events},
                    format="json")
    assert r.status_code == 201, r.json()
    return expected_seq + len(events)


@pytest.mark.django_db(transaction=True)
def test_small_battle_end_to_end_through_the_api_and_the_replay_task(gm_client, defender_client, attacker_client,
                                                                    battle, replay_worker):
    """The game master sets the table up (force_mustered is his); each player
    records his own side's turns, and the attacker the capture of the
    defender's tank, which the rules hand to him (V-CAPT-5)."""
    seq = post(gm_client, battle, SETUP, 0)
    for client, batch in ((defender_client, DEFENDER_1), (attacker_client, ATTACKER_1),
                          (defender_client, DEFENDER_2[:1])):
        seq = post(client, battle, batch, seq)

    # a dead fighter never acts (S-DEAD): d2, killed in the house, cannot fire in his side's next turn
    r = defender_client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": seq, "events": [
        {"type": "fire", "data": {"shooter": "d2", "weapon": "rifle", "target": "fighters", "distance": 3,
                                  "struck": [{"fighter": "a2", "die": D(20)}]}}]}, format="json")
    assert r.status_code == 422 and r.json()["error"]["rule_id"] == "S-DEAD"
    seq = post(defender_client, battle, DEFENDER_2[1:], seq)

    # a refused event names its rule: a dead fighter cannot act (d2 died in the house)
    r = attacker_client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": seq, "events": [
        {"type": "postures_declared", "data": {"side": "attacker", "units": {"A": "assault"}}},
        {"type": "fire", "data": {"shooter": "a3", "weapon": "rifle", "target": "fighters", "distance": 3,
                                  "struck": [{"fighter": "d2", "die": D(20)}]}}]}, format="json")
    assert r.status_code == 422 and r.json()["error"]["rule_id"] == "S-TARGET"

    seq = post(attacker_client, battle, ATTACKER_2, seq)
    assert replay_worker.wait(battle.id, seq) is not None
    body = attacker_client.get(f"/api/battles/{battle.id}/state/").json()
    assert body["seq"] == seq == body["head_seq"]
    s = body["state"]
    f = s["fighters"]

    assert (s["status"], s["winner"], s["turn"]) == ("ended", "attacker", 2)
    # attacker: a1 wounded then recovered; nobody else hurt
    assert not f["a1"]["wounded"] and not f["a1"]["dead"] and f["a1"]["recovering_ply"] == 1
    assert not any(f[x]["wounded"] or f[x]["dead"] for x in ("a_sgt", "a2", "a3", "a_med", "a_tc", "a_tp"))
    # defender: d1 wounded and captured by a2's unit, d2 killed in the house, d3 wounded again
    assert f["d1"]["wounded"] and f["d1"]["captured"] and f["d1"]["captor_unit"] == "A"
    assert f["d2"]["dead"]
    assert f["d3"]["wounded"] and not f["d3"]["dead"]
    # the house took no damage from a class-4 gun (V-HOUSE-2); the tank was missed (V-TEST-8)
    assert s["buildings"]["H"]["damage"] == 0
    assert s["vehicles"]["T34"]["damage"] == 0 and not s["vehicles"]["T34"]["destroyed"]
    # the PzIV: damaged, immobilised, captured with its crew; it now belongs to the attacker (V-CAPT-7)
    pz = s["vehicles"]["PzIV"]
    assert (pz["damage"], pz["running_gear"], pz["captured"], pz["side"]) == (1, True, True, "attacker")
    assert f["d_tc"]["captured"] and f["d_tp"]["captured"] and f["a1"]["credit"]["vehicles_captured"] == 1
    assert f["d_tc"]["credit"]["vehicles_lost"] == 1
    # morale: squad D retreats in posture march (V-TEST-4)
    assert s["units"]["D"]["morale"] == "retreat" and s["units"]["D"]["posture"] == "march"
    assert s["morale_tests"] == 1
    # credits for the campaign: the tank commander killed d2; Petrov wounded and captured d1
    assert s["characters"]["char-cpl-tankist"]["kills"] == 1
    assert s["characters"]["char-cpl-tankist"]["vehicles_damaged"] == 1
    assert s["characters"]["char-pvt-petrov"]["wounds"] == 1
    assert s["characters"]["char-pvt-petrov"]["prisoners_taken"] == 1
    assert s["characters"]["char-medic"]["saves"] == 1  # a1 recovered on the medic's re-roll
    assert s["characters"]["char-d1"] == {**s["characters"]["char-d1"], "wounded": 1, "captured": 1, "killed": 0}
    assert f["a3"]["credit"]["wounds"] == 1 and f["a1"]["credit"]["wounds"] == 1
    # fighters are conserved: alive + wounded + dead + captured == mustered
    fates = {"dead": 0, "captured": 0, "wounded": 0, "alive": 0}
    for x in f.values():
        fates["dead" if x["dead"] else "captured" if x["captured"] else "wounded" if x["wounded"] else "alive"] += 1
    assert fates == {"dead": 1, "captured": 3, "wounded": 1, "alive": 9}
