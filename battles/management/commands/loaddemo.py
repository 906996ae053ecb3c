"""Load a demo campaign (idempotent): a game master, players with characters on
both sides and their submitted rosters, a running campaign with objectives, a
played and concluded battle mustered from those rosters (``battles.setup.muster``)
whose log has real events, a pending proposal, and a battle still to fight,
scheduled with its participants and ready to muster. A second, Flames of War
campaign has an armoured-train battle mustered from FoW rosters and played a
few turns through the services (moves, At the Double, Digging In, shots).

It wires every app, so it lives in battles, the top of the app layers (.importlinter)."""
from datetime import timedelta

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from battles import results
from battles.models import Battle
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from battles.setup.muster import battle_muster, battle_participant_add, battle_schedule
from campaign import services
from campaign.models import Campaign, CampaignStatus, Character, Membership, Nationality, Objective
from rosters import services as rosters
from rosters.models import FowTeamType, InfantryClass, Roster

DEMO_CAMPAIGN = "Демо: Курская дуга, 1943"
USERS = [("master", "game_master", True), ("ivan", "player", False), ("hans", "player", False),
         ("petr", "player", False)]
CAST = [("ivan", "Иван Громов", "su", "lieutenant", "defender"), ("petr", "Пётр Лапин", "su", "sergeant", "defender"),
        ("hans", "Hans Weber", "de", "lieutenant", "attacker")]


def _shot(shooter, target, wound_die=15):
    """A rifle shot at 6": hit test 16, the struck fighter's G-2 die."""
    return ("fire", {"shooter": shooter, "weapon": "rifle", "target": "fighters", "distance": 6,
                     "hit": {"value": 16, "source": "entered"},
                     "struck": [{"fighter": target, "die": {"value": wound_die, "source": "entered"}}]})


# The demo's rosters, built through the roster services: (login, roster name, lieutenant alone?, squads, extra
# class of the squad's second fire team). Mustering names the figures by these rosters' order: Ivan is
# ``ivan-f1`` (his lieutenant), Petr ``petr-s1-f1`` (his squad's sergeant), Hans ``hans-f1``.
ROSTERS = [("ivan", "Рота Громова", True, "medic"), ("petr", "Отделение Лапина", False, "rifleman"),
           ("hans", "Kampfgruppe Weber", True, "lmg")]
SQUAD_NAMES = {"ivan": "1-е отделение", "petr": "2-е отделение", "hans": "1. Gruppe"}


def _roster(user, character, campaign, name, lieutenant, extra):
    """A small valid roster, submitted: an optional lieutenant standing alone
    and one squad (sergeant + 4 riflemen; corporal + 3 riflemen + ``extra``)."""
    roster = Roster.objects.filter(character=character, campaign=campaign, name=name).first()
    if roster is not None:
        return roster
    cls = {c.code: c for c in InfantryClass.objects.all()}
    roster = rosters.roster_create(user=user, character=character, name=name, campaign=campaign)
    if lieutenant:
        rosters.fighter_add(user=user, roster=roster, infantry_class=cls["lieutenant"])
    squad = rosters.unit_add(user=user, roster=roster, kind="squad", name=SQUAD_NAMES[user.username])
    for code, count, team in (("sergeant", 1, 1), ("rifleman", 4, 1), ("corporal", 1, 2), ("rifleman", 3, 2),
                              ({"medic": "medic", "lmg": "light_mg"}.get(extra, "rifleman"), 1, 2)):
        rosters.fighter_add(user=user, roster=roster, infantry_class=cls[code], count=count, unit=squad,
                            fire_team=team)
    rosters.roster_submit(user=user, roster=roster)
    roster.refresh_from_db()
    return roster


def _battle_events():
    """The played battle after the muster, by the mustered ids: Ivan (ivan-f1)
    and Petr (petr-s1-f1) hold the station; Hans (hans-f1) attacks."""
    dug_in = {"ivan-s1": "dug_in", "ivan-s1-t2": "dug_in", "petr-s1": "dug_in", "petr-s1-t2": "dug_in"}
    return [
        ("postures_declared", {"side": "defender", "units": dug_in, "fighters": {"ivan-f1": "dug_in"}}),
        _shot("ivan-f1", "hans-s1-f2"), _shot("petr-s1-f1", "hans-s1-f2"), _shot("ivan-s1-f2", "hans-f1"),
        # two players hold the station: each says «Ход» for his own roster, then the side's turn ends
        ("player_done", {"side": "defender", "turn": 1, "player": "ivan"}),
        ("player_done", {"side": "defender", "turn": 1, "player": "petr"}),
        ("turn_ended", {"side": "defender", "turn": 1}),
        ("postures_declared", {"side": "attacker", "units": {"hans-s1": "assault", "hans-s1-t2": "assault"},
                               "fighters": {"hans-f1": "assault"}}),
        ("turn_ended", {"side": "attacker", "turn": 1}),
        ("postures_declared", {"side": "defender", "units": dug_in, "fighters": {"ivan-f1": "dug_in"}}),
        _shot("ivan-f1", "hans-s1-f3"), _shot("ivan-s1-f3", "hans-s1-f3"),
        ("player_done", {"side": "defender", "turn": 2, "player": "petr"}),
        ("player_done", {"side": "defender", "turn": 2, "player": "ivan"}),
        ("turn_ended", {"side": "defender", "turn": 2}),
        ("postures_declared", {"side": "attacker", "units": {"hans-s1": "recon", "hans-s1-t2": "recon"},
                               "fighters": {"hans-f1": "recon"}}),
        ("wound_test", {"fighter": "hans-f1", "die": {"value": 17, "source": "entered"}}),
        ("turn_ended", {"side": "attacker", "turn": 2}),
        ("battle_ended", {"winner": "defender", "reason": "Атака отбита. / The attack was repulsed."}),
    ]


# --- the Flames of War demo: an armoured train at a railway junction ---------------------------
FOW_CAMPAIGN = "Демо (Flames of War): бронепоезд у разъезда"
# login -> (roster name, [(platoon type, platoon name, escorts the previous train?, [(team type, count)])])
FOW_ROSTERS = {
    "ivan": ("Бронепоезд «Ильич»", [
        ("armoured_train", "Бронепоезд «Ильич»", False, [("locomotive", 1), ("artillery_wagon", 2)]),
        ("tank", "Танковый взвод поддержки", True, [("medium_tank", 2)]),
    ]),
    "hans": ("Kampfgruppe Weber (FoW)", [
        ("infantry", "1. Zug", False, [("command_team", 1), ("rifle_team", 3)]),
        ("recon", "Aufklärung", False, [("scout_car", 2)]),
    ]),
}


def _fow_roster(user, character, campaign, name, platoons):
    """A FoW roster through the roster services: platoons of teams, submitted."""
    roster = Roster.objects.filter(character=character, campaign=campaign, name=name).first()
    if roster is not None:
        return roster
    types = {t.code: t for t in FowTeamType.objects.all()}
    roster = rosters.roster_create(user=user, character=character, name=name, campaign=campaign)
    train = None
    for fow_kind, title, escort, teams in platoons:
        unit = rosters.unit_add(user=user, roster=roster, kind="fow_platoon", fow_kind=fow_kind, name=title,
                                parent=train if escort else None)
        train = unit if fow_kind == "armoured_train" else train
        for code, count in teams:
            rosters.fow_team_add(user=user, roster=roster, unit=unit, team_type=types[code], count=count)
    rosters.roster_submit(user=user, roster=roster)
    roster.refresh_from_db()
    return roster


def _d(value):
    return {"value": value, "source": "entered"}


def _fow_battle_events():
    """After the muster (in inches, the attacker first): before anything moves, the railway line is laid
    (F-TRAIN-3..7: Ivan, who has the train, picks the edges, Hans the first point, Ivan the second).
    Hans's rifle team runs At the Double and his scouts move; Ivan's train steams in along its line
    (F-TRAIN-14/15) and a gun wagon fires at the running team (double dice, F-DBL-10); Hans's platoon
    Digs In (F-DIG) and his scouts fire at the escort tank still aboard."""
    return [
        ("railway_edges_chosen", {"side": "defender", "edges": "east_west"}),
        ("railway_point_chosen", {"side": "attacker", "edge": "east", "position": 18}),
        ("railway_point_chosen", {"side": "defender", "edge": "west", "position": 30}),
        ("railway_line_laid", {"side": "defender", "length": 48, "crosses_deployment_area": True, "bridges": 1}),
        ("team_moved", {"team": "hans-p1-t2", "distance": 12, "at_the_double": True, "closest_enemy": 20}),
        ("team_moved", {"team": "hans-p2-t1", "distance": 4}),
        ("turn_ended", {"side": "attacker", "turn": 1}),
        ("train_entered", {"train": "ivan-p1", "distance": 14, "train_length": 12}),
        ("team_shot", {"shooter": "ivan-p1-t2", "target": "hans-p1-t2", "dice": [_d(4), _d(6)]}),
        ("turn_ended", {"side": "defender", "turn": 1}),
        ("dig_in_attempted", {"platoon": "hans-p1", "die": _d(5)}),
        ("team_shot", {"shooter": "hans-p2-t1", "target": "ivan-p2-t1", "dice": [_d(6), _d(3)]}),
        ("turn_ended", {"side": "attacker", "turn": 2}),
    ]


def _fow_demo(users, master):
    """The FoW campaign (idempotent): Ivan's armoured train and its tank escort against Hans's
    infantry and recon, one battle mustered from their rosters and played a few turns (still running)."""
    campaign, _ = Campaign.objects.get_or_create(
        name=FOW_CAMPAIGN,
        defaults={"description": "Демо второго набора правил: Flames of War. / A demo of the Flames of War ruleset.",
                  "attacker_name": "Вермахт", "defender_name": "РККА", "game_master": master, "ruleset": "fow"},
    )
    characters = {}
    for username, name, nation, rank, side in CAST:
        if username not in FOW_ROSTERS:
            continue
        character = Character.objects.filter(owner=users[username], name=name).first() or \
            services.character_create(owner=users[username], name=name, rank=rank,
                                      nationality=Nationality.objects.get(code=nation))
        characters[username] = character
        m = Membership.objects.filter(campaign=campaign, character=character).first() or \
            services.membership_request(campaign=campaign, character=character)
        if not m.side:
            services.membership_assign_side(membership=m, side=side, by=master)
    if campaign.status == CampaignStatus.DRAFT:
        services.campaign_start(campaign=campaign, by=master)
    rosters = {login: _fow_roster(users[login], characters[login], campaign, name, platoons)
               for login, (name, platoons) in FOW_ROSTERS.items()}
    battle = Battle.objects.filter(campaign=campaign, number=1).first() or battle_schedule(
        user=master, campaign=campaign, name="Бой у разъезда",
        mission="Остановить бронепоезд у разъезда. / Stop the armoured train at the junction.")
    if battle.head_seq == 0:
        if not battle.participants.exists():
            for login in FOW_ROSTERS:
                battle_participant_add(user=master, battle=battle, character=characters[login],
                                       roster=rosters[login])
        battle = battle_muster(user=master, battle=battle, units="in", first_mover="attacker").battle
        battle_event_append(
            battle_id=battle.id, expected_seq=battle.head_seq, recorded_by=master, as_game_master=True,
            events=[NewEvent(type=t, data=d, key=f"demo-fow-{i}") for i, (t, d) in enumerate(_fow_battle_events(), 1)],
        )
    return battle


class Command(BaseCommand):
    help = "Load the demo campaign (safe to run repeatedly). / Загрузить демо-кампанию."

    @transaction.atomic
    def handle(self, *args, **options):
        users = {}
        for username, group, staff in USERS:
            user, created = User.objects.get_or_create(username=username, defaults={"is_staff": staff})
            if created:
                user.set_password(username)
                user.save()
            user.groups.add(Group.objects.get(name=group))
            users[username] = user
        master = users["master"]
        campaign, _ = Campaign.objects.get_or_create(
            name=DEMO_CAMPAIGN,
            defaults={"description": "Демонстрационная кампания Штаба. / Shtab's demo campaign.",
                      "attacker_name": "Вермахт", "defender_name": "РККА", "game_master": master,
                      "map_description": "Южный фас Курского выступа. / The southern face of the Kursk salient."},
        )
        if not campaign.objectives.exists():
            Objective.objects.create(campaign=campaign, name="Прохоровка", initial_holder="defender", order=1,
                                     description="Железнодорожная станция. / The railway station.")
            Objective.objects.create(campaign=campaign, name="Высота 252.2", initial_holder="defender", order=2)
            Objective.objects.create(campaign=campaign, name="Совхоз «Октябрьский»", order=3)
        ids = {}
        for username, name, nation, rank, side in CAST:
            character = Character.objects.filter(owner=users[username], name=name).first() or \
                services.character_create(owner=users[username], name=name, rank=rank,
                                          nationality=Nationality.objects.get(code=nation))
            ids[username] = character.pk
            m = Membership.objects.filter(campaign=campaign, character=character).first() or \
                services.membership_request(campaign=campaign, character=character)
            if not m.side:
                services.membership_assign_side(membership=m, side=side, by=master)
        if campaign.status == CampaignStatus.DRAFT:
            services.campaign_start(campaign=campaign, by=master)
        characters = {c.owner.username: c for c in Character.objects.filter(pk__in=ids.values())
                      .select_related("owner")}
        rosters = {login: _roster(users[login], characters[login], campaign, name, lieutenant, extra)
                   for login, name, lieutenant, extra in ROSTERS}
        battle = Battle.objects.filter(campaign=campaign, number=1).first()
        if battle is None:
            battle = battle_create(campaign=campaign, name="Бой у Прохоровки", number=1,
                                   mission="Удержать станцию до конца 2-го хода. / Hold the station to the end of turn 2.",
                                   victory_conditions="Станция у обороняющихся. / The defender holds the station.",
                                   objectives=list(campaign.objectives.filter(order=1).values_list("pk", flat=True)))
        # The battle still to fight: scheduled with its participants, ready for the game master to muster.
        # Its participants are added first, while every roster is still submitted (battle 1 locks them
        # until it ends).
        upcoming = Battle.objects.filter(campaign=campaign, number=2).first()
        if upcoming is None:
            upcoming = battle_schedule(
                user=master, campaign=campaign, name="Разведка боем",
                scheduled_for=timezone.now().replace(hour=18, minute=0, second=0, microsecond=0)
                + timedelta(days=7),
                mission="Разведать оборону у высоты 252.2. / Probe the defence at Hill 252.2.",
                objectives=list(campaign.objectives.filter(order=2).values_list("pk", flat=True)))
        for b in (upcoming, battle):
            if b.head_seq == 0 and not b.participants.exists():
                for login in ("ivan", "petr", "hans"):
                    battle_participant_add(user=master, battle=b, character=characters[login],
                                           roster=rosters[login])
        if battle.head_seq == 0:
            battle = battle_muster(user=master, battle=battle).battle
            battle_event_append(
                battle_id=battle.id, expected_seq=battle.head_seq, recorded_by=master, as_game_master=True,
                events=[NewEvent(type=t, data=d, key=f"demo-{i}") for i, (t, d) in enumerate(_battle_events(), 1)],
            )

        fow_battle = _fow_demo(users, master)

        def conclude():
            battle_replay(battle_id=battle.id)
            results.battle_conclude(battle_id=battle.id)
            battle_replay(battle_id=fow_battle.id)

        transaction.on_commit(conclude)
        self.stdout.write(self.style.SUCCESS(
            f"Demo loaded: campaigns «{campaign.name}» and «{FOW_CAMPAIGN}». Logins (password = username): master (game master), "
            "ivan, petr, hans (players)."))
