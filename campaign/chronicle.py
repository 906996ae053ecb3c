"""Campaign events told as sentences (Django i18n: Russian and English)."""
from __future__ import annotations

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from .models import Award, Campaign, CampaignEvent, Character, Gender, Rank

SIDES = {"attacker": lambda: _("the attacker"), "defender": lambda: _("the defender"), "": lambda: _("nobody"),
         "draw": lambda: _("a draw")}


def _side(code: str, names: dict[str, str] | None = None) -> str:
    """The campaign's own name for the side («РККА»), else the role's word."""
    return (names or {}).get(code) or SIDES.get(code, lambda: code)()


def _rank(code: str) -> str:
    return str(Rank(code).label) if code in Rank.values else code


def _agreeing(e: CampaignEvent, masculine: str, feminine: str) -> str:
    """The sentence whose verb agrees with the character's grammatical gender
    («поступил» / «поступила»): the feminine forms carry the msgctxt
    ``feminine`` (the English is the same)."""
    character = e.character if e.character_id else None
    return feminine if character is not None and character.gender == Gender.FEMININE else masculine


def describe(e: CampaignEvent, awards: dict[int, Award] | None = None,
             sides: dict[str, str] | None = None, people: dict[int, str] | None = None) -> str:
    """The event as a sentence; ``sides``: its campaign's names of the sides, by role; ``people``: the
    names of the characters a command entry holds by id (never the ids themselves)."""
    d = e.data
    who = e.character.name if e.character_id and e.character else ""
    t = e.type
    if t == "character_enlisted":
        return _agreeing(e, _("%(who)s entered service as %(rank)s."),
                         pgettext("feminine", "%(who)s entered service as %(rank)s.")) % {
            "who": who, "rank": _rank(d["rank"])}
    if t == "member_joined":
        return _agreeing(e, _("%(who)s joined the campaign."),
                         pgettext("feminine", "%(who)s joined the campaign.")) % {"who": who}
    if t == "side_assigned":
        return _("%(who)s fights for %(side)s.") % {"who": who, "side": _side(d["side"], sides)}
    if t == "campaign_started":
        return _("The campaign began.")
    if t == "campaign_finished":
        return _("The campaign ended.")
    def person(pk: str) -> str:
        return (people or {}).get(int(pk)) or "?"  # (a character deleted since: no id shown)

    if t == "command_roll":
        rolls = ", ".join(f"{person(k)}: {v['value']}" for k, v in d["rolls"].items())
        return _("Command roll, %(side)s, round %(round)s: %(rolls)s.") % {
            "side": _side(d["side"], sides), "round": d["round"], "rolls": rolls}
    if t == "command_assigned":
        n = len(d["posts"])
        posts = "; ".join(f"{person(k)} — {v['post']} ({_rank(v['rank'])})" if v.get("post") else
                          f"{person(k)} ({_rank(v['rank'])})" for k, v in d["posts"].items() if isinstance(v, dict))
        return ngettext("The captain of %(side)s assigned %(n)s post.", "The captain of %(side)s assigned %(n)s posts.",
                        n) % {"side": _side(d["side"], sides), "n": n} + (f" {posts}." if posts else "")
    if t == "battle_result":
        battle = e.battle.name if e.battle_id and e.battle else ""
        if d["winner"] == "draw":
            return _("Battle «%(battle)s» ended in a draw.") % {"battle": battle}
        return _("Battle «%(battle)s» was won by %(side)s.") % {"battle": battle, "side": _side(d["winner"], sides)}
    if t == "battle_fought":
        return _agreeing(e, _("%(who)s fought: kills %(kills)s, casualties %(casualties)s."),
                         pgettext("feminine", "%(who)s fought: kills %(kills)s, casualties %(casualties)s.")) % {
            "who": who, "kills": d.get("kills", 0), "casualties": d.get("casualties", 0)}
    if t == "objective_changed":
        return _("Objective «%(name)s» passed to %(side)s.") % {"name": d.get("name", d["objective"]),
                                                                "side": _side(d.get("to", ""), sides)}
    if t == "award_granted":
        award = (awards or {}).get(d["award"])
        name = award.name(get_language() or "ru") if award else d.get("award_code", "")
        return _agreeing(e, _("%(who)s was awarded %(award)s."),
                         pgettext("feminine", "%(who)s was awarded %(award)s.")) % {"who": who, "award": name}
    if t == "promotion":
        return _agreeing(e, _("%(who)s was promoted from %(from)s to %(to)s."),
                         pgettext("feminine", "%(who)s was promoted from %(from)s to %(to)s.")) % {
            "who": who, "from": _rank(d["from"]), "to": _rank(d["to"])}
    if t == "proposal_rejected":
        return _("A proposal for %(who)s was rejected.") % {"who": who}
    return t


def describe_all(events: list[CampaignEvent]) -> list[CampaignEvent]:
    """Attach ``text`` to each event (a query for the awards named, one for the campaigns' side names, one
    for the characters a command entry names)."""
    ids = {e.data.get("award") for e in events if e.type == "award_granted"}
    awards = Award.objects.in_bulk([i for i in ids if i]) if ids else {}
    named = {e.campaign_id for e in events}
    sides = {pk: {"attacker": a, "defender": d} for pk, a, d in Campaign.objects.filter(pk__in=named)
             .values_list("pk", "attacker_name", "defender_name")} if named else {}
    held = {int(k) for e in events if e.type in ("command_roll", "command_assigned")
            for k in (e.data.get("rolls") or e.data.get("posts") or {})}
    people = dict(Character.objects.filter(pk__in=held).values_list("pk", "name")) if held else {}
    for e in events:
        e.text = describe(e, awards, sides.get(e.campaign_id), people)
    return events
