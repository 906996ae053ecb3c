"""Check the logs' hash chains and the battles' committed dice (docs/verify.md,
"Verifying a log"): every battle's log, every campaign's log and every
character's own (his enlistment), or one battle's or one campaign's. Exit 1
naming each log and the first seq (a battle's) or event id (a campaign's)
where it was rewritten, a die the service derived that is not its
derivation, or a dice secret that is not its commitment's."""
from django.core.management.base import BaseCommand, CommandError

from battles.models import Battle
from battles.selectors import battle_log_verify
from campaign.models import Campaign, CampaignEvent
from campaign.selectors import campaign_log_verify


class Command(BaseCommand):
    help = ("Verify the logs' hash chains and the battles' committed dice (all logs, or one battle's or one "
            "campaign's). / Проверить цепочки хешей журналов и заявленные кости боёв (все журналы или один).")

    def add_arguments(self, parser):
        parser.add_argument("--battle", type=int, help="only this battle id")
        parser.add_argument("--campaign", type=int, help="only this campaign id's log")

    def handle(self, *args, **options):
        one, campaign = options["battle"], options["campaign"]
        ids = ([one] if one is not None else [] if campaign is not None
               else list(Battle.objects.order_by("id").values_list("id", flat=True)))
        broken = self._battles(ids)
        campaigns = ([campaign] if campaign is not None else [] if one is not None
                     else list(Campaign.objects.order_by("id").values_list("id", flat=True)))
        characters = ([] if one is not None or campaign is not None else list(
            CampaignEvent.objects.filter(campaign=None).values_list("character_id", flat=True).distinct()
            .order_by("character_id")))
        broken += self._campaigns(campaigns, characters)
        if broken:
            raise CommandError("\n".join(broken))
        if ids or campaign is None:
            self.stdout.write(self.style.SUCCESS(f"all {len(ids)} battles verified"))
        if campaigns:
            self.stdout.write(self.style.SUCCESS(f"all {len(campaigns)} campaign logs verified"))
        if characters:
            self.stdout.write(self.style.SUCCESS(f"all {len(characters)} character logs verified"))

    def _campaigns(self, campaigns, characters):
        broken = []
        for log in [{"campaign_id": c} for c in campaigns] + [{"campaign_id": None, "character_id": c}
                                                              for c in characters]:
            verdict = campaign_log_verify(**log)
            name = (f"campaign {log['campaign_id']}" if log["campaign_id"] is not None
                    else f"character {log['character_id']}")
            if verdict is None:
                raise CommandError(f"{name}: no such campaign / нет такой кампании")
            if verdict.ok:
                self.stdout.write(f"{name}: {verdict.checked} event(s), head {verdict.head_chain}")
            else:
                broken.append(f"{name}: the log is broken at event id {verdict.first_broken_id} (its first "
                              f"{verdict.checked} event(s) hold) / журнал ({name}) нарушен на событии "
                              f"{verdict.first_broken_id}")
        return broken

    def _battles(self, ids):
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
            if dice is not None and dice.first_bad_command is not None:
                bad = dice.first_bad_command
                broken.append(f"battle {battle_id}: a die the service rolled in the command roll of the "
                              f"{bad['side']}, round {bad['round']}, is not its derivation / кость сервиса в броске "
                              f"за командование ({bad['side']}, раунд {bad['round']}) боя {battle_id} не выводится "
                              f"из секрета")
            if verdict.ok:
                self.stdout.write(f"battle {battle_id}: {verdict.checked} event(s), head {verdict.head_chain}"
                                  + ("" if dice is None else f", {dice.checked + dice.command_checked} committed "
                                     f"die(s) re-derived ({dice.command_checked} of the command rolls), "
                                     f"{dice.uncommitted} uncommitted"))
        return broken
