"""Roster builder pages: server-rendered, work without JavaScript (every change
is a POST followed by a redirect); a little JS swaps the page in place.

Forms parse input; the services decide. Errors from the services are shown
as messages in the visitor's language.
"""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.models import Campaign
from campaign.roles import is_game_master
from config.errors import ApplicationError
from config.inputs import ascii_int

from . import forms, selectors, services
from .api_cards import character_for_cards, roster_for_cards
from .cards import character_cards_load, roster_cards_load
from .models import Fighter, FowTeam, Side, Status, Unit, Upgrade, Vehicle, VehicleOption


def _ru() -> bool:
    return (get_language() or "ru").startswith("ru")


def _error(request, exc: ApplicationError) -> None:
    messages.error(request, exc.for_person())


def _visible(request, roster_id: int):
    roster = selectors.rosters_visible(user=request.user).filter(pk=roster_id).first()
    if roster is None:
        raise Http404
    return roster


def _back(roster_id: int, anchor: str = ""):
    response = redirect("roster-detail", roster_id=roster_id)
    if anchor:
        response["Location"] += f"#{anchor}"
    return response


@login_required
def roster_list(request):
    rosters = selectors.rosters_visible(user=request.user).select_related("character__nationality")
    filters = {key: request.GET[key] for key in ("campaign", "side", "status") if request.GET.get(key)}
    if "campaign" not in filters or ascii_int(filters["campaign"]) is not None:
        rosters = rosters.filter(**filters)
    rosters = list(rosters)
    reports = selectors.rosters_reports(rosters=rosters)
    for r in rosters:
        r.report = reports.get(r.pk)
    return render(request, "rosters/roster_list.html", {
        "rosters": rosters, "is_master": is_game_master(request.user), "filters": filters,
        "campaigns": Campaign.objects.order_by("name"), "sides": Side.choices, "statuses": Status.choices})


@login_required
def roster_new(request):
    form = forms.RosterForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            roster = services.roster_create(user=request.user, character=d["character"], name=d["name"],
                                            campaign=d["campaign"], side=d["side"])
        except ApplicationError as exc:
            _field_error(form, exc)
        else:
            return _back(roster.pk)
    return render(request, "rosters/roster_form.html", {"form": form})


@login_required
def roster_edit(request, roster_id: int):
    roster = _visible(request, roster_id)
    form = forms.RosterEditForm(request.POST or None, initial={
        "name": roster.name, "campaign": roster.campaign_id, "side": roster.side,
        "air_support_cards": roster.air_support_cards})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.roster_update(user=request.user, roster=roster, name=d["name"], campaign=d["campaign"],
                                   side=d["side"], air_support_cards=d["air_support_cards"])
        except ApplicationError as exc:
            _field_error(form, exc)
        else:
            return _back(roster.pk)
    return render(request, "rosters/roster_form.html", {"form": form, "roster": roster})


def _page_context(request, roster_id: int) -> dict:
    """The page's data (one selector) plus what depends on the visitor."""
    page = selectors.roster_page(roster_id=roster_id, language="ru" if _ru() else "en")
    tree, game = page["tree"], page["game"]
    ru = _ru()
    user = request.user
    roster = tree.roster
    master = is_game_master(user)
    editable = roster.status == Status.DRAFT and (master or roster.owner_id == user.pk)
    return {
        **page,
        "rank_title": roster.character.rank_title("ru" if ru else "en"),
        "is_master": master, "editable": editable, "upgradable": ("squad", "hq_squad", "tactical_group"),
        "can_reopen": roster.status == Status.SUBMITTED and (master or roster.owner_id == user.pk),
        "unit_form": forms.UnitForm(tree=tree, game=game, auto_id="unit_%s"),
        "fighter_form": forms.FighterForm(tree=tree, game=game, auto_id="fighter_%s"),
        "vehicle_form": forms.VehicleForm(tree=tree, game=game, auto_id="vehicle_%s"),
        "fow": tree.ruleset == "fow",
        "team_form": forms.FowTeamForm(tree=tree, game=game, auto_id="team_%s"),
    }


def roster_detail(request, roster_id: int):
    """Read by its owner and the game master, by anyone once it has fought, and
    by anyone with its share link (``?share=``); read-only for all but the owner
    and the game master (``selectors.roster_readable``)."""
    share = request.GET.get("share", "")
    roster = selectors.roster_readable(user=request.user, roster_id=roster_id, share=share)
    if roster is None:
        if not request.user.is_authenticated and not share:
            return redirect_to_login(request.get_full_path())
        raise Http404
    if request.GET.get("format") == "json":
        data = selectors.roster_export(tree=selectors.roster_tree(roster_id=roster_id))
        response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="roster-{roster_id}.json"'
        return response
    context = _page_context(request, roster_id)
    owner = roster.owner_id == request.user.pk or context["is_master"]
    context.update({
        "reader_only": not owner, "share": share if share and share == roster.share_token else "",
        "share_url": request.build_absolute_uri(f"{request.path}?share={roster.share_token}")
        if owner and roster.share_token else "",
        "fought": roster.fought, "locked_by": selectors.roster_locked_by(roster=roster)})
    return render(request, "rosters/roster_detail.html", context)


def _run(request, roster_id: int, fn, anchor: str = "", **kwargs):
    try:
        fn(user=request.user, **kwargs)
    except ApplicationError as exc:
        _error(request, exc)
    return _back(roster_id, anchor)


@require_POST
@login_required
def unit_add(request, roster_id: int):
    roster = _visible(request, roster_id)
    tree = selectors.roster_tree(roster_id=roster_id)
    form = forms.UnitForm(request.POST, tree=tree, game=selectors.game_data_current())
    if not form.is_valid():
        messages.error(request, _("Check the unit form: %s") % form.errors.as_text())
        return _back(roster_id)
    d = form.cleaned_data
    try:
        unit = services.unit_add(user=request.user, roster=roster, kind=d["kind"], name=d["name"],
                                 parent=Unit.objects.filter(roster=roster, pk=d["parent"]).first(),
                                 group_kind=d.get("group_kind", ""), fow_kind=d.get("fow_kind", ""))
        if d.get("upgrade"):
            services.unit_upgrades_set(user=request.user, roster=roster, unit=unit,
                                       upgrades=list(Upgrade.objects.filter(code=d["upgrade"])))
    except ApplicationError as exc:
        _error(request, exc)
        return _back(roster_id)
    return _back(roster_id, f"unit-{unit.pk}")


def _field_error(form, exc: ApplicationError) -> None:
    """A service refusal shown on the field it names (its "field: " prefix
    dropped, the label already says it), else above the form."""
    text = exc.message_ru if _ru() else exc.message_en
    field = exc.field if exc.field in form.fields else None
    if field and text.startswith(f"{field}: "):
        text = text[len(field) + 2:]
    if exc.rule_id and exc.rule_id not in text:
        text = f"{text} ({exc.rule_id})"
    form.add_error(field, text)


def _unit(roster, unit_id: int) -> Unit:
    unit = Unit.objects.filter(roster=roster, pk=unit_id).first()
    if unit is None:
        raise Http404
    return unit


@login_required
def unit_remove(request, roster_id: int, unit_id: int):
    """Ask first, saying what goes with the unit; the POST removes it."""
    roster = _visible(request, roster_id)
    unit = _unit(roster, unit_id)
    if request.method == "POST":
        summary = selectors.unit_removal_summary(unit=unit)
        try:
            services.unit_remove(user=request.user, roster=roster, unit=unit)
        except ApplicationError as exc:
            _error(request, exc)
            return _back(roster_id)
        messages.success(request, _("Removed «%(name)s» with %(units)d sub-units, %(men)d fighters, %(vehicles)d "
                                    "vehicles.") % {"name": summary.unit.name, "units": len(summary.sub_units),
                                                    "men": summary.fighters, "vehicles": len(summary.vehicles)})
        return _back(roster_id)
    return render(request, "rosters/unit_remove.html", {
        "roster": roster, "summary": selectors.unit_removal_summary(unit=unit),
        "editable": roster.status == Status.DRAFT and (is_game_master(request.user)
                                                       or roster.owner_id == request.user.pk)})


@login_required
def unit_edit(request, roster_id: int, unit_id: int):
    """Rename a unit and move it elsewhere in the roster (the rules decide where)."""
    roster = _visible(request, roster_id)
    unit = _unit(roster, unit_id)
    form = forms.UnitEditForm(request.POST or None, places=selectors.unit_places(unit=unit),
                              initial={"name": unit.name, "parent": unit.parent_id})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        parent = Unit.objects.filter(roster=roster, pk=d["parent"]).first() if d["parent"] else None
        try:
            with transaction.atomic():
                services.unit_rename(user=request.user, roster=roster, unit=unit, name=d["name"])
                if parent != unit.parent:
                    services.unit_move(user=request.user, roster=roster, unit=unit, parent=parent)
        except ApplicationError as exc:
            _field_error(form, exc)
        else:
            messages.success(request, _("Unit saved."))
            return _back(roster_id, f"unit-{unit.pk}")
    return render(request, "rosters/unit_edit.html", {"roster": roster, "unit": unit, "form": form})


@require_POST
@login_required
def unit_upgrade(request, roster_id: int, unit_id: int):
    """V-UPG-1: buy (or drop, with an empty choice) the unit's upgrade card."""
    roster = _visible(request, roster_id)
    unit = Unit.objects.filter(roster=roster, pk=unit_id).first()
    if unit is None:
        raise Http404
    code = request.POST.get("upgrade", "")
    upgrades = list(Upgrade.objects.filter(code=code)) if code else []
    return _run(request, roster_id, services.unit_upgrades_set, f"unit-{unit.pk}", roster=roster, unit=unit,
                upgrades=upgrades)


@login_required
def roster_import(request):
    """Upload a JSON export: refused whole with every problem, or a new draft."""
    form = forms.ImportForm(request.POST or None, request.FILES or None, user=request.user)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            data = json.loads(form.cleaned_data["file"].read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            messages.error(request, _("The file is not JSON."))
        else:
            try:
                roster, _report = services.roster_import(user=request.user, character=form.cleaned_data["character"],
                                                         data=data)
            except ApplicationError as exc:
                _error(request, exc)
                problems = [p["message_ru"] if _ru() else p["message_en"] for p in exc.extra.get("problems", [])]
            else:
                messages.success(request, _("Imported as a draft."))
                return _back(roster.pk)
    return render(request, "rosters/roster_import.html", {"form": form, "problems": problems})


@require_POST
@login_required
def fighter_add(request, roster_id: int):
    roster = _visible(request, roster_id)
    tree = selectors.roster_tree(roster_id=roster_id)
    game = selectors.game_data_current()
    form = forms.FighterForm(request.POST, tree=tree, game=game)
    if not form.is_valid():
        messages.error(request, _("Check the fighter form: %s") % form.errors.as_text())
        return _back(roster_id)
    d = form.cleaned_data
    place = d["place"] or ""
    unit = Unit.objects.filter(roster=roster, pk=place[1:]).first() if place.startswith("u") else None
    vehicle = Vehicle.objects.filter(roster=roster, pk=place[1:]).first() if place.startswith("v") else None
    cls = next(c for c in game.classes if c.code == d["infantry_class"])
    anchor = f"unit-{unit.pk}" if unit else (f"vehicle-{vehicle.pk}" if vehicle else "")
    return _run(request, roster_id, services.fighter_add, anchor, roster=roster, infantry_class=cls,
                count=d["count"], unit=unit, vehicle=vehicle, fire_team=d["fire_team"])


@require_POST
@login_required
def fighter_count(request, roster_id: int, fighter_id: int):
    roster = _visible(request, roster_id)
    fighter = Fighter.objects.filter(roster=roster, pk=fighter_id).first()
    form = forms.CountForm(request.POST)
    if fighter is None:  # already removed (a double click): nothing to do
        return _back(roster_id)
    if not form.is_valid():
        messages.error(request, _("Count must be a number from 0 to 1000."))
        return _back(roster_id)
    anchor = f"unit-{fighter.unit_id}" if fighter.unit_id else ""
    team = form.cleaned_data["fire_team"]
    return _run(request, roster_id, services.fighter_update, anchor, roster=roster, fighter=fighter,
                count=form.cleaned_data["count"], fire_team=team if "fire_team" in request.POST else "keep")


@require_POST
@login_required
def vehicle_add(request, roster_id: int):
    roster = _visible(request, roster_id)
    tree = selectors.roster_tree(roster_id=roster_id)
    form = forms.VehicleForm(request.POST, tree=tree, game=selectors.game_data_current())
    if not form.is_valid():
        messages.error(request, _("Check the vehicle form: %s") % form.errors.as_text())
        return _back(roster_id)
    d = form.cleaned_data
    return _run(request, roster_id, services.vehicle_add, roster=roster, kind=d["kind"], name=d["name"],
                unit=Unit.objects.filter(roster=roster, pk=d["unit"]).first(), gun_type=d["gun_type"] or "",
                armour_class=d["armour_class"], gun_class=d["gun_class"], side_skirts=d["side_skirts"],
                options=list(VehicleOption.objects.filter(code__in=d["options"])))


@require_POST
@login_required
def vehicle_remove(request, roster_id: int, vehicle_id: int):
    roster = _visible(request, roster_id)
    vehicle = Vehicle.objects.filter(roster=roster, pk=vehicle_id).first()
    if vehicle is None:
        raise Http404
    return _run(request, roster_id, services.vehicle_remove, roster=roster, vehicle=vehicle)


ACTIONS = {
    "submit": services.roster_submit, "reopen": services.roster_reopen, "lock": services.roster_lock,
    "unlock": services.roster_unlock, "reprice": services.roster_reprice,
}


@require_POST
@login_required
def roster_action(request, roster_id: int, action: str):
    roster = _visible(request, roster_id)
    try:
        if action == "duplicate":
            copy = services.roster_duplicate(user=request.user, roster=roster)
            messages.success(request, _("Copied."))
            return _back(copy.pk)
        if action in ("share", "unshare"):
            services.roster_share_set(user=request.user, roster=roster, on=action == "share")
            messages.success(request, _("Share link on: anyone with it can read this roster.") if action == "share"
                             else _("Share link off: the old link no longer works."))
            return _back(roster_id, "share")
        if action == "delete":
            services.roster_delete(user=request.user, roster=roster)
            messages.success(request, _("Deleted."))
            return redirect("roster-list")
        if action not in ACTIONS:
            raise Http404
        ACTIONS[action](user=request.user, roster=roster)
    except ApplicationError as exc:
        _error(request, exc)
        return _back(roster_id)
    messages.success(request, {"submit": _("Submitted for the battle."), "reopen": _("Back to draft."),
                               "lock": _("Locked."), "unlock": _("Unlocked."),
                               "reprice": _("Priced with the current game data.")}[action])
    return _back(roster_id)


@require_POST
@login_required
def fow_team_add(request, roster_id: int):
    roster = _visible(request, roster_id)
    tree = selectors.roster_tree(roster_id=roster_id)
    game = selectors.game_data_current()
    form = forms.FowTeamForm(request.POST, tree=tree, game=game)
    if not form.is_valid():
        messages.error(request, _("Check the team form: %s") % form.errors.as_text())
        return _back(roster_id)
    d = form.cleaned_data
    unit = Unit.objects.filter(roster=roster, pk=d["unit"]).first()
    team_type = next(t for t in game.fow_team_types if t.code == d["team_type"])
    return _run(request, roster_id, services.fow_team_add, f"unit-{d['unit']}", roster=roster, unit=unit,
                team_type=team_type, count=d["count"])


@require_POST
@login_required
def fow_team_count(request, roster_id: int, team_id: int):
    roster = _visible(request, roster_id)
    team = FowTeam.objects.filter(roster=roster, pk=team_id).first()
    form = forms.CountForm(request.POST)
    if team is None:  # already removed (a double click)
        return _back(roster_id)
    if not form.is_valid():
        messages.error(request, _("Count must be a number from 0 to 1000."))
        return _back(roster_id)
    return _run(request, roster_id, services.fow_team_update, f"unit-{team.unit_id}", roster=roster, team=team,
                count=form.cleaned_data["count"])


@login_required
def character_cards(request, character_id: int):
    """Printable cards of a character and his awards (V-FORM-1/2, V-RANK-3),
    for his owner and the game master; the PDF is one link away."""
    character = character_for_cards(request.user, character_id)
    return render(request, "campaign/cards.html", {
        "cards": character_cards_load(character=character), "title": character.name,
        "pdf_url": reverse("api-character-card-pdf", args=[character.pk])})


def roster_cards(request, roster_id: int):
    """Printable cards of a roster: character, units, vehicles, upgrades, air
    support. Who may read them is the roster page's rule (``roster_readable``:
    owner, game master, anyone once it has fought, anyone with the share link
    ``?share=``); the PDF links carry the share token on."""
    share = request.GET.get("share", "")
    try:
        roster = roster_for_cards(request.user, roster_id, share=share)
    except Http404:
        if not request.user.is_authenticated and not share:
            return redirect_to_login(request.get_full_path())
        raise
    return render(request, "campaign/cards.html", {
        "cards": roster_cards_load(roster_id=roster.pk), "title": roster.name, "share": share,
        "pdf_url": reverse("api-roster-cards-pdf", args=[roster.pk])})
