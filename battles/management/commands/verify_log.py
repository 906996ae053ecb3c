"""Check battle logs' hash chains (docs/append.md, "Verifying a log"): exit 1
naming each battle and the first seq where its log was rewritten."""
from django.core.management.base import BaseCommand, CommandError

from battles.models import Battle
from battles.selectors import battle_log_verify


class Command(BaseCommand):
    help = ("Verify the battle logs' hash chains (all battles, or one). / "
            "Проверить цепочку хешей журналов боёв (всех или одного).")

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
            if verdict.ok:
                self.stdout.write(f"battle {battle_id}: {verdict.checked} event(s), head {verdict.head_chain}")
            else:
                broken.append(f"battle {battle_id}: the log is broken at seq {verdict.first_broken_seq} "
                              f"(its first {verdict.checked} event(s) hold) / журнал боя {battle_id} нарушен "
                              f"на записи {verdict.first_broken_seq}")
        if broken:
            raise CommandError("\n".join(broken))
        self.stdout.write(self.style.SUCCESS(f"all {len(ids)} battles verified"))
