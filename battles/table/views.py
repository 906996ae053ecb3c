"""Battle pages: the table checklist, pre-battle command, the state, the log
as sentences (paged), live updates, the game master's panel, and the
recording panel for the people at the table (built by ``battles.table.recording``)
with its POSTs: ``battle_record`` parses a submitted form and appends the event
through ``battles.services.battle_event_append``, the same service the API
calls; a refusal, a stale ``expected_seq`` or a bad field re-renders the page
with the input kept and the reason inline.

Everything a reader sees passes through ``battles.engine.visibility`` first:
hidden information (mines) reaches only those who may know of it."""
from __future__ import annotations

import random
import time
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, pgettext
from django.views.decorators.http import require_GET, require_POST

from battles import engine, selectors, services
from battles.access import BattleRole, battle_role
from battles.engine import visibility
from battles.engine.terms import lang_of, readable
from battles.log import moves, tail
from battles.models import Battle
from campaign.models import Character
from campaign.selectors import campaign_view
from config import rows
from config.errors import ApplicationError, Conflict, InvalidInput, RuleRefused
from config.inputs import ascii_int

from . import command, ending, offline, recording, recording_fow, report, tabletop
from .board import board
from .labels import CTX

LOG_PAGE = 50  # log entries per page: a long battle never sends its whole log


def _sides(battle: Battle) -> dict[str, str]:
    return {"attacker": battle.campaign.attacker_name, "defender": battle.campaign.defender_name}


def _before(request: HttpRequest) -> int | None:
    before = ascii_int(request.GET.get("before", ""))
    return before if before is not None and before > 0 else None


def _regions(request: HttpRequest, battle: Battle, role: BattleRole, *, before: int | None = None,
             shown: tuple[int, int] | None = None) -> dict[str, Any]:
    """The state and log regions for this reader (the page and the live
    fragments share them): four queries whatever the log's length.
    ``shown``: the (head, state) seqs the reader's page was rendered at; the
    log then holds only the lines that page lacks or showed without their
    outcome (``log_tail``), when it can be merged (``_log_after``)."""
    lang = lang_of(get_language())
    view = selectors.battle_state_get(battle_id=battle.id)
    full = view.state
    seen = visibility.state_for(full, role.side, game_master=role.is_game_master)
    names = tail.names(battle_id=battle.id, head=view.head_seq, seats=role.seats)
    sides = _sides(battle)
    events = (tail.page(battle_id=battle.id, head=view.head_seq, limit=LOG_PAGE) if before is None
              else selectors.battle_log_page(battle_id=battle.id, before=before, limit=LOG_PAGE))
    after = _log_after(shown, view.head_seq, events) if before is None else None
    if after is not None:
        events = [e for e in events if e.seq > after]
    first = events[0].seq if events else 0
    last = events[-1].seq if events else 0

    def data_for(e: Any) -> dict[str, Any]:
        return visibility.event_for(e.type, e.data, side=role.side, game_master=role.is_game_master, state=full)

    rules = {**engine.DEFAULT_RULES, **(battle.rules or {})}  # the battle's snapshot, else the defaults
    return {
        "view": view, "state": seen, "names": names, "role": role,
        "board": board(seen, names=names, language=lang, sides=sides,
                       vehicle_reserve=int(rules.get("vehicle_reserve", 0)),
                       non_tank_reserve=int(rules.get("non_tank_reserve", rules.get("vehicle_reserve", 0)))),
        "chapters": report.report(events, seen, lang, names=names, sides=sides, data_for=data_for,
                                  outcomes=selectors.battle_outcomes(battle_id=battle.id, first=first, last=last)),
        "final": [{**row, "name": sides[row["side"]]} for row in report.final_state(seen)],
        "log_first": first, "log_last": last,
        "older": first if first > 1 else None,
        "newer": (last + LOG_PAGE + 1) if before is not None and last < view.head_seq else None,
        "paged": before is not None,
        "recent": [e.seq for e in reversed(events)] if role.is_game_master else [],
        "log_tail": after is not None,
    }


def _log_after(shown: tuple[int, int] | None, head: int, events: list[Any]) -> int | None:
    """The seq after which a live answer's log lines start, or ``None`` for the whole
    log: the page showed the log up to its head, with outcomes up to its state; the
    lines after the lower of the two are sent again or for the first time. Not
    when the page showed nothing yet, is ahead, is a page or more behind, or a
    correction came since (a void strikes through a line the page holds)."""
    if shown is None:
        return None
    since, state = shown
    after = min(since, state)
    if since < 1 or since > head or head - after >= LOG_PAGE or not events or events[0].seq > after + 1:
        return None
    if any(e.type == "correction" for e in events if e.seq > after):
        return None
    return after


def _command(battle: Battle, role: BattleRole) -> list[dict[str, Any]]:
    """The pre-battle command of each side this reader may decide (V-RANK-9..12): who still rolls, the
    captain once the roll settled it, and the posts he assigns. A side of one player needs none."""
    sides = ["attacker", "defender"] if role.is_game_master else [role.side] if role.side else []
    out = []
    for side in sides:
        team = sorted(command.side_team(battle=battle, side=side))
        if len(team) < 2:
            continue
        st = command.command_state(battle=battle, side=side)
        people = {c.pk: c for c in Character.objects.filter(pk__in=team).select_related("nationality")}
        # (a few players a side: the names and national rank words of each)
        rolling = st.contenders if st.rounds else team
        may_assign = st.captain is not None and not st.assigned and (
            role.is_game_master or st.captain in role.characters)
        person = _person_of(people, lang_of(get_language()))
        out.append({"side": side, "name": _sides(battle)[side],
                    "captain": person(st.captain) if st.captain in people else None,
                    "rolling": [person(c) for c in rolling if c in people] if st.captain is None else [],
                    "round": st.rounds + 1, "assigned": st.assigned,
                    "others": [person(c) for c in team if c != st.captain and c in people] if may_assign else []})
    return out


def _person_of(people: dict[int, Any], lang: str) -> Any:
    """A character of the command forms: his name, his rank in his nation's words, the battle ranks to give."""
    def person(c: int) -> dict[str, Any]:
        ch = people[c]
        return {"pk": c, "name": ch.name, "title": ch.nationality.rank_name(ch.rank, lang),
                "ranks": [(r, ch.nationality.rank_name(r, lang)) for r in ("lieutenant", "sergeant", "corporal")]}

    return person


def render_battle_page(request, battle: Battle, *, record_panel: dict[str, Any] | None = None, status: int = 200,
                       gm_error: ApplicationError | None = None, gm_form: str = "",
                       gm_input: dict[str, Any] | None = None, void_preview: dict[str, Any] | None = None,
                       command_error: str = "", command_side: str = ""):
    """The battle page for this request's user. ``record_panel`` replaces the
    recording panel's context (a refused or stale form re-rendered with its
    input and the error); otherwise a fresh panel is built. ``gm_error``
    shows a refused game-master action inline, next to its form."""
    role = battle_role(battle_id=battle.pk, user=request.user)
    ctx = _regions(request, battle, role, before=_before(request))
    if record_panel is None:
        record_panel = recording.record_panel(battle=battle, role=role, view=ctx["view"], names=ctx["names"],
                                              request=request)
    lang, forms = lang_of(get_language()), _command(battle, role) if before_first_turn_ends(ctx) else []
    ctx.update(ending.results(battle, role, lang))
    ctx.update({
        "battle": battle, "campaign": battle.campaign, "record_panel": record_panel,
        "objectives": _at_stake(battle),
        "gm_error": (gm_error.message_ru if lang == "ru" else gm_error.message_en) if gm_error else "",
        "gm_error_rule": gm_error.rule_id if gm_error else "",
        "role_side_name": _sides(battle).get(role.side or "", ""),
        "gm_form": gm_form, "gm_input": gm_input or {}, "void_preview": void_preview,
        "live_url": reverse("battle-live", args=[battle.id]),
        "live_wait": int(settings.LIVE_WAIT_SECONDS) if moves.available() else 0,
        "command_forms": forms, "command_live": any(not f["assigned"] for f in forms),  # (``battle_live``)
        "command_error": command_error, "command_side": command_side,
        "dice": ending.dice(battle),
        "tabletop": tabletop.guide(lang),
    })
    return render(request, "battles/battle_detail.html", ctx, status=status)


def before_first_turn_ends(ctx: dict[str, Any]) -> bool:
    """The command is decided before the battle (V-RANK-9): until the first side's «Ход»."""
    status = ctx["board"].get("status")
    return status == "planned" or (status == "running" and not ctx["view"].state.get("ply"))


def _command_post(request: HttpRequest, battle_id: int, act: Any) -> HttpResponse:
    """The command forms' POST: authorization first (the battle's participants and the game master),
    then the service decides; a refusal shows beside the form in the reader's language."""
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    role = battle_role(battle_id=battle.pk, user=request.user)
    if not role.may_record:
        return HttpResponseForbidden(_no_command(request))
    side = request.POST.get("side", "")
    if side not in ("attacker", "defender") or not (role.is_game_master or side == role.side):
        return HttpResponseForbidden(_no_command(request))
    try:
        act(battle, side)
    except ApplicationError as exc:
        text = exc.message_ru if lang_of(get_language()) == "ru" else exc.message_en
        return render_battle_page(request, battle, status=exc.status_code, command_side=side,
                                  command_error=f"{exc.rule_id}: {text}" if exc.rule_id else text)
    return redirect(reverse("battle-detail", args=[battle.id]) + "#command")


def _no_command(request: HttpRequest) -> str:
    ru, en = "Командование стороны определяют её игроки и мастер.", "A side's players and the game master decide its command."
    return ru if lang_of(get_language()) == "ru" else en


def _die_of(request: HttpRequest, name: str) -> dict[str, Any] | None:
    source, value = request.POST.get(f"{name}-source", "rolled"), request.POST.get(f"{name}-value", "").strip()
    if source != "entered":
        return None  # the service rolls
    number = ascii_int(value)
    return {"source": "entered", "value": value if number is None else number}  # a word: the engine names it


@require_POST
def battle_command_roll(request: HttpRequest, battle_id: int) -> HttpResponse:
    """V-RANK-9/10: each player of the side still rolling throws a die (entered, or rolled by the service)."""
    def act(battle: Battle, side: str) -> None:
        ids = [k[5:-7] for k in request.POST if k.startswith("roll-") and k.endswith("-source")]
        rolls = {n: _die_of(request, f"roll-{c}") for c in ids if (n := ascii_int(c)) is not None}
        command.command_roll(battle=battle, side=side, rolls=rolls, by=request.user)

    return _command_post(request, battle_id, act)


@require_POST
def battle_command_assign(request: HttpRequest, battle_id: int) -> HttpResponse:
    """V-RANK-11: the captain gives every other player of his side a post and a battle rank."""
    def act(battle: Battle, side: str) -> None:
        ids = [k[5:-5] for k in request.POST if k.startswith("post-") and k.endswith("-rank")]
        posts = {n: {"post": request.POST.get(f"post-{c}-post", ""), "rank": request.POST.get(f"post-{c}-rank", "")}
                 for c in ids if (n := ascii_int(c)) is not None}
        command.command_assign(battle=battle, side=side, posts=posts, by=request.user)

    return _command_post(request, battle_id, act)


# --- recording: the panel's POSTs (the panel itself: ``recording``) --------------------------------
def _message(exc: ApplicationError, names: dict[str, str] | None = None) -> str:
    """The error in the reader's language, the pieces it names by their names (never their ids)."""
    text = exc.message_ru if (get_language() or "ru").startswith("ru") else exc.message_en
    return readable(text, names=names or {}, language=get_language())


def _field_for(form: Any, field: str | None) -> str | None:
    """The form field an error's ``field`` (``data.struck[0].fighter``) names, if the form has it."""
    if not field or not field.startswith("data."):
        return None
    path = field[5:].replace("[", ".").replace("]", "").split(".")
    for cand in ("__".join(path), "__".join(path) + "__source", "__".join(path[:1])):
        if cand in form.fields:
            return cand
    return None


@require_POST
def battle_record(request: Any, battle_id: int) -> Any:
    """Record one event from the battle page. Authorization first: anyone who
    may not record at this battle gets 403 before the form is read."""
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    role = battle_role(battle_id=battle.pk, user=request.user)
    if not role.may_record:
        raise PermissionDenied
    form_id = request.POST.get("form", "")
    known = (form_id in ("quick_fire", "quick_move", "quick_turn", "postures")
             or (form_id in recording_fow.FORMS and battle.campaign.ruleset == "fow")
             or form_id in engine.ruleset_of(battle.campaign.ruleset).registry)
    if not known:
        raise PermissionDenied
    view = selectors.battle_state_get(battle_id=battle.id)
    names = tail.names(battle_id=battle.id, head=view.head_seq, seats=role.seats)
    state = view.state
    expected = ascii_int(request.POST.get("expected_seq", ""))
    expected = -1 if expected is None else expected
    table = recording.recorder_table(state, role, names, battle)
    form = recording.build_form(form_id, request.POST, battle=battle, role=role, state=state, table=table)
    type_name = {"quick_turn": "turn_ended", "postures": "postures_declared", "quick_fire": "fire"}.get(form_id, form_id)
    if form_id == "quick_move":
        type_name = "fighters_moved"
    elif form_id in recording_fow.FORMS:
        type_name = recording_fow.event_type(form_id)
    allowed = recording.events_allowed(state=state, role=role)

    def again(status: int, error: dict[str, Any] | None = None, notice: str = "", fresh: bool = False) -> Any:
        """Re-render the page with this form's input kept; ``fresh``: built on the state as it is now."""
        now, bound = view, form
        if fresh:
            now = selectors.battle_state_get(battle_id=battle.id)
            now_table = recording.recorder_table(now.state, role, names, battle)
            bound = recording.build_form(form_id, request.POST, battle=battle, role=role, state=now.state,
                                         table=now_table)
        panel = recording.record_panel(battle=battle, role=role, view=now, names=names, request=request,
                                       submitted=recording.Submitted(form_id, bound, error), notice=notice)
        shown = {i["id"] for i in panel.get("quick", []) + panel.get("forms", [])}
        if panel["allowed"] and form_id not in shown:  # the turn moved on: still show what was typed
            title = recording.QUICK_TITLES.get(form_id) or recording.type_title(type_name, battle.campaign.ruleset)
            panel["forms"].insert(0, {"id": form_id, "title": title, "form": bound, "error": error, "open": True})
        if _scripted(request):
            return live_answer(request, battle, role, panel=panel, status=status, shown=_shown(request))
        return render_battle_page(request, battle, record_panel=panel, status=status)

    stale = expected != view.head_seq
    if not stale and type_name not in allowed:
        raise PermissionDenied
    key = f"{request.POST.get('token', '')[:64]}:{form_id}" if request.POST.get("token") else None
    if not form.is_valid():
        # A retry of an entry this player stored (its answer lost with the connection, docs/offline.md)
        # whose form the battle has moved past: answered as stored, as the service answers a valid one.
        seq = offline.stored_seq(battle_id=battle.id, key=key, recorded_by=request.user) if key else None
        if seq is not None:
            return _recorded(request, battle, None, seq=seq)
        if stale:
            return again(409, notice=_stale_notice(expected, view.head_seq), fresh=True)
        return again(400)
    # A stale form still goes to the service: a double submit (same token) gets the stored event
    # back; anything else is refused there as stale, before its payload is judged.
    event_type = form.event_type
    events = [services.NewEvent(event_type, form.payload(), key=key)]
    if form_id == "quick_turn" and role.shares_side and not role.is_game_master:
        events = recording.hod_events(state, role, key, form.payload())
    try:
        stored = services.battle_event_append(
            battle_id=battle.id, events=events, expected_seq=expected,
            recorded_by=request.user, as_game_master=role.is_game_master, role=role)
    except RuleRefused as exc:
        return again(422, error={"rule_id": exc.rule_id, "message": _message(exc, names)})
    except Conflict as exc:
        if exc.code == "stale_seq":
            return again(409, notice=_stale_notice(expected, exc.extra.get("current_seq", view.head_seq)), fresh=True)
        return again(409, notice=_message(exc, names))
    except InvalidInput as exc:
        name = _field_for(form, exc.field)
        if name:
            form.add_error(name, _message(exc, names))
            return again(400)
        return again(400, error={"rule_id": None, "message": _message(exc, names)})
    except ApplicationError as exc:
        return again(exc.status_code, error={"rule_id": exc.rule_id, "message": _message(exc, names)})
    return _recorded(request, battle, stored)


@require_POST
def battle_take_back(request: Any, battle_id: int) -> Any:
    """A player takes back his own last entry (V-TURN-13): a correction naming
    his side, appended through the same service; the engine decides whether
    it is still his to take back, the service that he recorded it."""

    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    role = battle_role(battle_id=battle.pk, user=request.user)
    if not role.may_record or not role.side:
        raise PermissionDenied
    view = selectors.battle_state_get(battle_id=battle.id)
    names = tail.names(battle_id=battle.id, head=view.head_seq, seats=role.seats)
    seq = max(ascii_int(request.POST.get("seq", "")) or 0, 0)
    reason = "Взято назад игроком / Taken back by the player"
    try:
        stored = services.battle_event_append(
            battle_id=battle.id, expected_seq=seq or None, recorded_by=request.user, role=role,
            events=[services.NewEvent("correction", {"voids_seq": seq, "reason": reason, "side": role.side},
                                      key=f"take-back-{seq}")])
    except ApplicationError as exc:
        panel = recording.record_panel(battle=battle, role=role, view=view, names=names, request=request,
                                       notice=(f"{exc.rule_id}: " if exc.rule_id else "") + _message(exc, names))
        if _scripted(request):
            return live_answer(request, battle, role, panel=panel, status=exc.status_code)
        return render_battle_page(request, battle, record_panel=panel, status=exc.status_code)
    return _recorded(request, battle, stored)


def _stale_notice(expected: int, current: int) -> str:
    return pgettext(CTX, "The other player recorded meanwhile (the log moved from event %(old)s to %(new)s). "
                         "The state below is fresh; your input is kept: check it and send again.") % {
        "old": max(expected, 0), "new": current}


def _at_stake(battle: Battle) -> list[dict[str, Any]]:
    """The objectives the battle is fought for, each with the side holding it now (the campaign projection)."""
    objectives = selectors.battle_objectives(battle_id=battle.pk)
    if not objectives:
        return []
    held = campaign_view(campaign=battle.campaign).objectives
    sides = _sides(battle)
    return [{"name": o.name, "holder": sides.get((held.get(str(o.pk)) or {}).get("holder") or o.initial_holder, "")}
            for o in objectives]


def battle_detail(request, battle_id: int):
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    return render_battle_page(request, battle)


SPREAD = 0.25  # seconds over which the readers one move wakes render (not all at once)
OUTCOME_WAIT = 2.0  # seconds a waiting live request gives the worker to tell a new entry's outcome


def battle_live_wait(*, battle_id: int, since: str, state: str, wait: float) -> tuple[int, int] | None:
    """The battle's (head seq, projection seq) once it differs from the
    reader's ``since`` and ``state``, waiting up to ``wait`` seconds for that
    where the server lets it (``battles.log.moves``); and once it moved, up to
    ``OUTCOME_WAIT`` more for the worker to tell the new entries' outcome, so
    the reader gets the entry with its outcome in one answer, not two.
    ``None`` for a battle that does not exist. Read once: a move tells where it went (``moves.Watch``)."""
    wait = wait if moves.available() else 0
    deadline = time.monotonic() + wait
    waited, head = False, None
    with moves.watching(battle_id) as moved:
        while True:
            moved.clear()  # (before the read: a move after it sets it again)
            if head is None or moved.lost:
                moved.lost = False
                head = selectors.battle_head(battle_id=battle_id)
            else:
                head = moved.told(head)
            if head is None or not wait:
                return head
            if (str(head[0]), str(head[1])) != (since, state):
                if head[0] == head[1]:
                    if waited:  # one move wakes all its readers at once: their renders spread over a moment
                        moves.pause(random.uniform(0, SPREAD))
                    return head
                deadline = min(deadline, time.monotonic() + OUTCOME_WAIT)
                since, state = str(head[0]), str(head[1])  # moved: now wait for the outcome alone
            left = deadline - time.monotonic()
            if left <= 0 or not moves.park(moved, left):
                return selectors.battle_head(battle_id=battle_id)
            waited = True


@require_GET
def battle_live(request: HttpRequest, battle_id: int) -> JsonResponse:
    """The page's live request: ``?since=<head seq>&state=<projection seq>``
    and, where the server lets it wait (``battles.log.moves``), ``&wait=<s>``.
    When nothing moved, one query and a tiny answer, after waiting up to
    ``wait`` seconds for the battle to move (``battle_live_wait``); otherwise
    the state and log regions re-rendered for this reader (the page swaps them
    in place). Without waiting (or with the command forms: ``&command=``) the page asks every second."""
    since, state = request.GET.get("since", ""), request.GET.get("state", "")
    wait = min(max(ascii_int(request.GET.get("wait", "")) or 0, 0), settings.LIVE_WAIT_SECONDS)
    head = battle_live_wait(battle_id=battle_id, since=since, state=state, wait=wait)
    shown_command = ascii_int(request.GET.get("command", ""))  # (a command entry moves no head)
    command_moved = shown_command is not None and command.entries(battle_id) != shown_command
    if head is not None and (str(head[0]), str(head[1])) == (since, state) and not command_moved:
        return JsonResponse({"head_seq": head[0], "state_seq": head[1], "changed": False})
    battle = rows.with_parent(Battle, battle_id, "campaign")
    if battle is None:
        return JsonResponse({"error": "not found"}, status=404)
    shown = ascii_int(since), ascii_int(state)
    return live_answer(request, battle, battle_role(battle_id=battle.pk, user=request.user),
                       shown=shown if None not in shown else None, with_command=shown_command is not None)


def live_answer(request: HttpRequest, battle: Battle, role: BattleRole, *, panel: dict[str, Any] | None = None,
                status: int = 200, shown: tuple[int, int] | None = None, with_command: bool = False) -> JsonResponse:
    """The regions of the battle page for this reader, as JSON the page's
    script swaps in: the live answer, and the answer to a form the script
    sent that was refused (``panel``: the recording panel with its input and
    the reason). The log comes whole (``log_html``) or, for a page that shows
    most of it (``shown``), as the lines it lacks (``log_tail``: chapters whose
    lines the script puts in place or adds). Once the battle has ended, the results, the dice secret and
    the game master's proposals too, and whether the campaign has recorded the results (``ending``).
    ``with_command``: the command section too, and its entries' count (``None``: its command is settled)."""
    ctx = _regions(request, battle, role, shown=shown)
    ctx.update({"battle": battle, "campaign": battle.campaign})
    log = ("log_tail", "battles/_log_tail.html") if ctx["log_tail"] else ("log_html", "battles/_log.html")
    out = {"head_seq": ctx["view"].head_seq, "state_seq": ctx["view"].seq, "changed": True,
           "state_html": render_to_string("battles/_state.html", ctx, request=request),
           "report_html": render_to_string("battles/_report.html", ctx, request=request),
           log[0]: render_to_string(log[1], ctx, request=request)}
    if role.may_record:
        if panel is None:
            panel = recording.record_panel(battle=battle, role=role, view=ctx["view"], names=ctx["names"],
                                           request=request)
        out["record_html"] = render_to_string("battles/_record_panel.html", {**ctx, "panel": panel},
                                              request=request)
    if with_command:
        forms = _command(battle, role) if before_first_turn_ends(ctx) else []
        entries = ending.results(battle, role, lang_of(get_language()))["command"]
        out["command_seq"] = len(entries) if any(not f["assigned"] for f in forms) else None
        out["command_html"] = render_to_string("battles/_command.html", {
            **ctx, "command": entries, "command_forms": forms}, request=request) if entries or forms else ""
    if ctx["board"].get("status") == "ended":  # the results, as the campaign records them (``ending``)
        ctx.update(ending.results(battle, role, lang_of(get_language())))
        out["concluded"] = ctx["concluded"]
        out["results_html"] = render_to_string("battles/_results.html", ctx, request=request)
        dice = ending.dice(battle)  # its secret, revealed now (issue 27 §4)
        out["dice_html"] = render_to_string("battles/_dice.html", {"dice": dice}, request=request) if dice else ""
        if role.is_game_master:
            out["proposals_html"] = render_to_string("battles/_proposals.html", ctx, request=request)
    return JsonResponse(out, status=status, json_dumps_params={"ensure_ascii": False})  # Cyrillic as itself


def _shown(request: HttpRequest) -> tuple[int, int] | None:
    """The (head, state) seqs the page that sent this form shows (its script adds
    ``shown_since`` and ``shown_state``), so a refusal's answer brings only the log
    lines it lacks, as a live answer does; ``None``: the whole log."""
    shown = ascii_int(request.POST.get("shown_since", "")), ascii_int(request.POST.get("shown_state", ""))
    return shown if None not in shown else None


def _scripted(request: HttpRequest) -> bool:
    """The page's script sent this form (``fetch``): it takes JSON and keeps
    the page where the player is, instead of following a redirect."""
    return request.headers.get("X-Requested-With") == "fetch"


def _recorded(request: HttpRequest, battle: Battle, stored: Any, *, seq: int | None = None) -> HttpResponse:
    """After a stored entry: the page's script hears its seq (it shows «recorded»
    and asks for the regions once the worker has told its outcome); a plain
    form goes back to the recording panel, which opens with the entry and its
    outcome, the quick forms right below it. A retried key (``stored.created``
    false, or ``seq`` found by ``offline.stored_seq``) answers ``already``: the
    offline queue (docs/offline.md) then knows the entry was stored before."""
    if _scripted(request):
        last = seq if seq is not None else stored.events[-1].seq
        answer: dict[str, Any] = {"recorded": last, "head_seq": last}
        if seq is not None or not stored.created:
            answer["already"] = True
        return JsonResponse(answer)
    return HttpResponseRedirect(f"{reverse('battle-detail', args=[battle.id])}#record", status=303)


def _gm_only(request: HttpRequest, battle_id: int) -> tuple[Battle, BattleRole] | HttpResponse:
    """Authorization before the form is read: 403 for anyone but the game master."""
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    role = battle_role(battle_id=battle.pk, user=request.user)
    if not role.is_game_master:
        ru, en = "Это может только мастер.", "Only the game master may do this."
        return HttpResponseForbidden(ru if lang_of(get_language()) == "ru" else en)
    return battle, role


def _gm_append(request: HttpRequest, battle: Battle, role: BattleRole, type_: str, data: dict[str, Any],
               form: str) -> HttpResponse:
    try:
        services.battle_event_append(battle_id=battle.id, events=[services.NewEvent(type=type_, data=data)],
                                     expected_seq=None, recorded_by=request.user, as_game_master=True, role=role)
    except ApplicationError as exc:
        return render_battle_page(request, battle, status=exc.status_code, gm_error=exc, gm_form=form,
                                  gm_input=dict(request.POST.items()))
    return redirect(reverse("battle-detail", args=[battle.id]) + "#log")


def _void_preview(request: HttpRequest, battle: Battle, seq: int) -> dict[str, Any]:
    """The entry to void and the later entries that would lose their effect, as the log tells them (with outcomes)."""
    later = selectors.battle_void_preview(battle=battle, seq=seq)
    events = list(battle.events.filter(seq__in=[seq, *later]).order_by("seq"))
    lines = {line.seq: line for chapter in report.report(
        events, selectors.battle_state_get(battle_id=battle.id).state, lang_of(get_language()),
        names=selectors.battle_names(battle_id=battle.id), sides=_sides(battle),
        outcomes=selectors.battle_outcomes(battle_id=battle.id, first=seq, last=max(later, default=seq)))
        for line in chapter.lines}
    return {"target": lines[seq], "later": [lines[s] for s in later if s in lines]}


@require_POST
def battle_void(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The game master voids an event with a reason (a ``correction``,
    V-TURN-13). The first submit shows what the void takes with it (the later
    entries that depend on it, by name) and asks to confirm; the second voids."""
    gm = _gm_only(request, battle_id)
    if isinstance(gm, HttpResponse):
        return gm
    battle, role = gm
    seq, reason = ascii_int(request.POST.get("seq", "").strip()), request.POST.get("reason", "").strip()
    if seq is None or seq < 1:
        err = InvalidInput("Номер записи: целое число от 1.", "Entry number: an integer from 1.", field="seq")
    elif not reason:
        err = InvalidInput("Причина: укажите, почему запись отменяется (V-TURN-13).",
                           "Reason: say why the entry is voided (V-TURN-13).", field="reason", rule_id="V-TURN-13")
    elif request.POST.get("confirm") == "1":
        return _gm_append(request, battle, role, "correction", {"voids_seq": seq, "reason": reason}, "void")
    else:
        try:
            preview = _void_preview(request, battle, seq)
        except engine.RuleViolation as exc:
            err = RuleRefused(exc.message_ru, exc.message_en, rule_id=exc.rule_id)
        else:
            return render_battle_page(request, battle, gm_form="void_confirm", gm_input=dict(request.POST.items()),
                                      void_preview=preview)
    return render_battle_page(request, battle, status=err.status_code, gm_error=err, gm_form="void",
                              gm_input=dict(request.POST.items()))


@require_POST
def battle_end(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The game master ends the battle with its winner and a reason."""
    gm = _gm_only(request, battle_id)
    if isinstance(gm, HttpResponse):
        return gm
    battle, role = gm
    winner, reason = request.POST.get("winner", ""), request.POST.get("reason", "").strip()
    if winner not in ("attacker", "defender", "draw"):
        err = InvalidInput("Итог: выберите победителя или ничью.", "Outcome: choose the winner or a draw.",
                           field="winner")
        return render_battle_page(request, battle, status=400, gm_error=err, gm_form="end",
                                  gm_input=dict(request.POST.items()))
    return _gm_append(request, battle, role, "battle_ended", {"winner": winner, "reason": reason}, "end")
