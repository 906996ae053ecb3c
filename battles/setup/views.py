"""The game master's pages for setting a battle up: schedule a battle of a
campaign, then add the characters who fight with their submitted rosters and
muster them onto the table. Thin: forms parse, ``battles.setup.muster`` decides.
Server-rendered, no JavaScript needed; 403 for anybody but the game master."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from battles.models import Battle, BattleParticipant
from campaign.models import Campaign
from campaign.roles import is_game_master
from config import rows
from config.errors import ApplicationError
from config.inputs import ascii_int
from rosters.models import Roster

from . import muster, selectors


def _message(exc: ApplicationError) -> str:
    text = exc.message_ru if (get_language() or "ru").startswith("ru") else exc.message_en
    return f"{exc.rule_id}: {text}" if exc.rule_id and exc.rule_id not in text else text


def _require_master(request) -> None:
    if not is_game_master(request.user):
        raise PermissionDenied


class ScheduleForm(forms.Form):
    name = forms.CharField(label=_("Battle name"), max_length=200)
    scheduled_for = forms.DateTimeField(label=_("Scheduled for"), required=False,
                                        widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                                   format="%Y-%m-%dT%H:%M"),
                                        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"])
    mission = forms.CharField(label=_("Mission"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    victory_conditions = forms.CharField(label=_("Victory conditions"), required=False,
                                         widget=forms.Textarea(attrs={"rows": 3}))
    turn_limit = forms.IntegerField(label=_("Turn limit"), required=False, min_value=1, max_value=99,
                                    help_text=_("The mission's number of turns; the page offers the end then."))
    objectives = forms.ModelMultipleChoiceField(label=_("Objectives at stake"), required=False, queryset=None,
                                                widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, campaign: Campaign, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["objectives"].queryset = campaign.objectives.all()


def fow_muster_choices(campaign: Campaign) -> dict:
    """What the game master chooses when mustering a FoW battle: the units the
    table measures in and who moves first (the seeds do not say who does)."""
    return {"units": [("in", _("inches")), ("cm", _("centimetres"))],
            "first_mover": [("attacker", campaign.attacker_name or _("attacker")),
                            ("defender", campaign.defender_name or _("defender"))]}


def fow_muster_args(post, campaign: Campaign) -> dict:
    """``battle_muster``'s FoW arguments from a posted form (v11.2: none; the
    service checks the values and names the field it refuses)."""
    if campaign.ruleset != "fow":
        return {}
    return {"units": post.get("units", ""), "first_mover": post.get("first_mover", "")}


@login_required
def battle_schedule_page(request, campaign_id: int):
    _require_master(request)
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    form = ScheduleForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        v = form.cleaned_data
        try:
            battle = muster.battle_schedule(user=request.user, campaign=campaign, name=v["name"],
                                            scheduled_for=v["scheduled_for"], mission=v["mission"],
                                            victory_conditions=v["victory_conditions"],
                                            objectives=[o.pk for o in v["objectives"]], turn_limit=v["turn_limit"])
        except ApplicationError as exc:
            form.add_error(None, _message(exc))
        else:
            messages.success(request, _("The battle is scheduled: now add its participants."))
            return redirect("battle-setup", battle.pk)
    return render(request, "battles/battle_schedule.html", {"campaign": campaign, "form": form},
                  status=400 if form.errors else 200)


@login_required
def battle_setup_page(request, battle_id: int):
    _require_master(request)
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "add":
                roster = Roster.objects.select_related("character").filter(
                    pk=ascii_int(request.POST.get("roster", "")) or 0).first()
                if roster is None:
                    messages.error(request, _("Choose a character's roster."))
                    return redirect("battle-setup", battle.pk)
                muster.battle_participant_add(user=request.user, battle=battle, character=roster.character,
                                              roster=roster)
                messages.success(request, _("Participant added."))
            elif action == "remove":
                participant = get_object_or_404(BattleParticipant, battle=battle,
                                                pk=ascii_int(request.POST.get("participant", "")) or 0)
                muster.battle_participant_remove(user=request.user, participant=participant)
                messages.success(request, _("Participant removed."))
            elif action == "remuster":
                muster.battle_remuster(user=request.user, battle=battle)
                messages.success(request, _("The forces are mustered anew."))
            elif action == "muster":
                muster.battle_muster(user=request.user, battle=battle,
                                     **fow_muster_args(request.POST, battle.campaign))
                messages.success(request, _("The forces are mustered and the battle has started."))
        except ApplicationError as exc:
            messages.error(request, _message(exc))
        return redirect("battle-setup", battle.pk)
    setup = selectors.battle_setup(battle=battle)
    return render(request, "battles/battle_setup.html", {
        "battle": battle, "campaign": battle.campaign, "setup": setup,
        "fow": fow_muster_choices(battle.campaign) if battle.campaign.ruleset == "fow" else None,
        "remusterable": muster.battle_may_remuster(battle=battle, mustered=setup.mustered),
    })
