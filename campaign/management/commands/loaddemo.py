"""Load a demo campaign (idempotent): a game master, players with characters on
both sides, a running campaign with objectives, a played and concluded battle
whose log has real events, a pending proposal, and a battle still to fight."""
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from battles.models import Battle
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from campaign import results, services
from campaign.models import Campaign, CampaignStatus, Character, Membership, Nationality, Objective

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


def _battle_events(ids):
    ivan, petr, hans = (str(ids[k]) for k in ("ivan", "petr", "hans"))
    return [
        ("force_mustered", {"side": "defender", "units": [{"id": "r1", "commander": "r-lt"}],
                            "fighters": [{"id": "r-lt", "unit": "r1", "cls": "officer", "rank": "lieutenant",
                                          "character": ivan},
                                         {"id": "r-sgt", "unit": "r1", "cls": "officer", "rank": "sergeant",
                                          "character": petr},
                                         {"id": "r-1", "unit": "r1"}, {"id": "r-2", "unit": "r1"},
                                         {"id": "r-med", "unit": "r1", "cls": "medic"}]}),
        ("force_mustered", {"side": "attacker", "units": [{"id": "g1", "commander": "g-lt"}],
                            "fighters": [{"id": "g-lt", "unit": "g1", "cls": "officer", "rank": "lieutenant",
                                          "character": hans},
                                         {"id": "g-1", "unit": "g1"}, {"id": "g-2", "unit": "g1"},
                                         {"id": "g-mg", "unit": "g1", "cls": "lmg_gunner"}]}),
        ("battle_started", {"attacker": "Вермахт", "defender": "РККА"}),
        ("postures_declared", {"side": "defender", "units": {"r1": "dug_in"}}),
        _shot("r-lt", "g-1"), _shot("r-sgt", "g-1"), _shot("r-1", "g-lt"),
        ("turn_ended", {"side": "defender", "turn": 1}),
        ("postures_declared", {"side": "attacker", "units": {"g1": "assault"}}),
        ("turn_ended", {"side": "attacker", "turn": 1}),
        ("postures_declared", {"side": "defender", "units": {"r1": "dug_in"}}),
        _shot("r-lt", "g-2"), _shot("r-2", "g-2"),
        ("turn_ended", {"side": "defender", "turn": 2}),
        ("postures_declared", {"side": "attacker", "units": {"g1": "recon"}}),
        ("wound_test", {"fighter": "g-lt", "die": {"value": 17, "source": "entered"}}),
        ("turn_ended", {"side": "attacker", "turn": 2}),
        ("battle_ended", {"winner": "defender", "reason": "Атака отбита. / The attack was repulsed."}),
    ]


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
        battle = Battle.objects.filter(campaign=campaign, number=1).first()
        if battle is None:
            battle = battle_create(campaign=campaign, name="Бой у Прохоровки", number=1,
                                   mission="Удержать станцию до конца 2-го хода. / Hold the station to the end of turn 2.",
                                   victory_conditions="Станция у обороняющихся. / The defender holds the station.",
                                   objectives=list(campaign.objectives.filter(order=1).values_list("pk", flat=True)))
        if battle.head_seq == 0:
            battle_event_append(
                battle_id=battle.id, expected_seq=0, recorded_by=master, as_game_master=True,
                events=[NewEvent(type=t, data=d, key=f"demo-{i}") for i, (t, d) in enumerate(_battle_events(ids), 1)],
            )
        if not Battle.objects.filter(campaign=campaign, number=2).exists():
            battle_create(campaign=campaign, name="Разведка боем", number=2,
                          objectives=list(campaign.objectives.filter(order=2).values_list("pk", flat=True)))

        def conclude():
            battle_replay(battle_id=battle.id)
            results.battle_conclude(battle_id=battle.id)

        transaction.on_commit(conclude)
        self.stdout.write(self.style.SUCCESS(
            f"Demo loaded: campaign «{campaign.name}». Logins (password = username): master (game master), "
            "ivan, petr, hans (players)."))
