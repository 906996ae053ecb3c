"""Load a demo campaign (idempotent): a game master, two players, a campaign and
a played battle whose log has real events. Grows with each feature."""
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from battles.models import Battle
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from campaign.models import Campaign

DEMO_CAMPAIGN = "Демо: Курская дуга, 1943"
USERS = [("master", "game_master", True), ("ivan", "player", False), ("hans", "player", False)]


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
        campaign, created = Campaign.objects.get_or_create(
            name=DEMO_CAMPAIGN,
            defaults={"description": "Демонстрационная кампания Штаба. / Shtab's demo campaign."},
        )
        battle = Battle.objects.filter(campaign=campaign, number=1).first() or battle_create(
            campaign=campaign, name="Бой у Прохоровки", number=1)
        if battle.head_seq == 0:
            script = [
                ("battle_started", {"attacker": "Вермахт", "defender": "РККА"}),
                ("turn_ended", {"side": "defender", "turn": 1}),
                ("turn_ended", {"side": "attacker", "turn": 1}),
                ("turn_ended", {"side": "defender", "turn": 2}),
                ("turn_ended", {"side": "attacker", "turn": 2}),
                ("battle_ended", {"winner": "defender", "reason": "Атака отбита. / The attack was repulsed."}),
            ]
            battle_event_append(
                battle_id=battle.id, expected_seq=0, recorded_by=users["master"], as_game_master=True,
                events=[NewEvent(type=t, data=d, key=f"demo-{i}") for i, (t, d) in enumerate(script, 1)],
            )
        if not Battle.objects.filter(campaign=campaign, number=2).exists():
            battle_create(campaign=campaign, name="Разведка боем", number=2)
        transaction.on_commit(lambda: battle_replay(battle_id=battle.id))
        self.stdout.write(self.style.SUCCESS(
            f"Demo loaded: campaign «{campaign.name}». Logins (password = username): master (game master), "
            "ivan, hans (players)."))
