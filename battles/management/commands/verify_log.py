"""Check battle logs' hash chains and committed dice (docs/append.md,
"Verifying a log"): exit 1 naming each battle and the first seq where its log
was rewritten, or where a die the service derived is not its derivation, or a
dice secret that is not its commitment's."""
from django.core.management.base import BaseCommand, CommandError

from battles.models import Battle
from battles.selectors import battle_log_verify


class Command(BaseCommand):
    help = ("Verify the battle logs' hash chains and committed dice (all battles, or one). / "
            "Проверить цепочку хешей и заявленные кости журналов боёв (всех или одного).")

    def add_arguments(self, parser):
        parser.add_argument("--battle", type=int, help="only this battle id")

    def handle(self, *args, **options):
        one = options["battle"]
        ids = [one] if one is not None else list(Battle.objects.order_by("id").values_list("id", flat=True))
        broken = []
        for battle_id in ids:
            verdict = battle_log_verify(battle_id=battle_id)
            if verdict is None:
                raise CommandError(f"battle {battle_id}: no such battle / нет такого боя")
            dice = verdict.dice
            if verdict.first_broken_seq is not None:
                broken.append(f"battle {battle_id}: the log is broken at seq {verdict.first_broken_seq} "
                              f"(its first {verdict.checked} event(s) hold) / журнал боя {battle_id} нарушен "
                              f"на записи {verdict.first_broken_seq}")
            if dice is not None and not dice.commitment_ok:
                broken.append(f"battle {battle_id}: the dice secret is not the commitment's / секрет костей боя "
                              f"{battle_id} не соответствует заявке")
            if dice is not None and dice.first_bad_seq is not None:
                broken.append(f"battle {battle_id}: a die the service rolled at seq {dice.first_bad_seq} is not "
                              f"its derivation / кость сервиса на записи {dice.first_bad_seq} боя {battle_id} не "
                              f"выводится из секрета")
            if verdict.ok:
                self.stdout.write(f"battle {battle_id}: {verdict.checked} event(s), head {verdict.head_chain}"
                                  + ("" if dice is None else f", {dice.checked} committed die(s) re-derived, "
                                     f"{dice.uncommitted} uncommitted"))
        if broken:
            raise CommandError("\n".join(broken))
        self.stdout.write(self.style.SUCCESS(f"all {len(ids)} battles verified"))
