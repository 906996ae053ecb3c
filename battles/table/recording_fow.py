"""The Flames of War quick panel of the battle page (issue 25, section 5).

The common actions of the side to move, each a short form that offers only
what the rules allow now: move (At the Double in the same form), shoot,
assault, Dig In, Go to Ground, the armoured train's move, and the end of the
current Step (a form of an earlier Step is not offered once a later one has
begun: the same checks refuse its act). The choices and
the numbers beside them come from ``battles.engine.fow.offers``, which runs
the same checks that would refuse the action; a value the form cannot know
in advance (the dice of a shot depend on the shooter and the target) is
checked against the engine's own count before anything is sent. The rarer
FoW events stay one click away as the generic forms (``battles.table.forms``).

``battles.table.recording`` calls ``form_ids`` and ``build`` for a FoW battle;
every form's ``payload()`` goes through the same append service as the API.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import get_language

from battles import engine
from battles.engine.fold import merge_rules
from battles.engine.fow import offers
from battles.engine.terms import lang_of, term
from config.inputs import ascii_int

from .choices import Table
from .forms import FAST_RENDERER
from .labels import BLANK
from .namer import Namer


def _t(ru: str, en: str) -> str:
    return ru if lang_of(get_language()) == "ru" else en


@dataclass
class Panel:
    """One FoW battle's offers for the acting side, computed once per page."""

    table: Table
    rules: dict[str, Any]

    def __post_init__(self) -> None:
        self.state = engine.state_from_json(self.table.state, "fow")
        self.side = self.table.side
        self.n = Namer(self.table.names, self.table.state, lang_of(get_language()), self.table.side_names)
        self._cache: dict[str, Any] = {}

    def _get(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def movers(self) -> dict[str, offers.Mover]:
        return self._get("movers", lambda: {m.team: m for m in offers.movers(self.state, self.side, self.rules)})

    @property
    def shooters(self) -> dict[str, offers.Shooter]:
        return self._get("shooters", lambda: {s.team: s for s in offers.shooters(self.state, self.side, self.rules)})

    @property
    def targets(self) -> list[str]:
        return self._get("targets", lambda: [t.id for t in offers.targets(self.state, self.side)])

    @property
    def assaulters(self) -> list[str]:
        return self._get("assaulters", lambda: offers.assaulters(self.state, self.side, self.rules))

    @property
    def grounders(self) -> list[str]:
        return self._get("grounders", lambda: offers.grounders(self.state, self.side, self.rules))

    @property
    def diggers(self) -> list[str]:
        return self._get("diggers", lambda: offers.diggers(self.state, self.side, self.rules))

    @property
    def rerollers(self) -> list[str]:
        return self._get("rerollers", lambda: offers.rerollers(self.state, self.side, self.rules))

    @property
    def trains(self) -> dict[str, float]:
        return self._get("trains", lambda: dict(offers.trains(self.state, self.side, self.rules)))

    def dist(self, v: float) -> str:
        return self.n.dist(v)

    def team(self, tid: str) -> str:
        """A team by name, with the statuses a player weighs before acting with it (G-F1: the core
        rules, not the seeds, say what a Bailed Out or Bogged Down team may do)."""
        t = self.state.teams[tid]
        notes = [term("fow_status", s, get_language()) for s in ("bailed_out", "bogged", "dug_in") if getattr(t, s)]
        return " · ".join([self.n.team(tid), *notes])

    def units(self) -> str:
        return _t("см", "cm") if self.state.measure == "cm" else _t("дюймы", "in")

    def dice_words(self, n: int) -> str:
        return _t(f"{n} куб.", f"{n} {'die' if n == 1 else 'dice'}")


_PANELS: weakref.WeakKeyDictionary[Table, Panel] = weakref.WeakKeyDictionary()


def panel(table: Table, rules: dict[str, Any] | None) -> Panel:
    """The offers for ``table`` (one per table object: a page builds several forms from it)."""
    p = _PANELS.get(table)
    if p is None:
        p = _PANELS[table] = Panel(table, merge_rules(rules, "fow"))
    return p


def _sorted(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted(items, key=lambda c: c[1])


def _die_fields(form: forms.Form, label: str) -> None:
    form.fields["die__source"] = forms.ChoiceField(
        label=label, initial="rolled", widget=forms.Select(attrs={"class": "die-source"}),
        choices=[("rolled", _t("бросок сервиса", "rolled by the service")),
                 ("entered", _t("с кубика за столом", "entered from the table"))])
    form.fields["die__value"] = forms.IntegerField(
        label=_t("Значение, 1–6", "Face, 1–6"), required=False, min_value=1, max_value=6,
        widget=forms.NumberInput(attrs={"class": "die-value", "inputmode": "numeric"}))


def _die(form: forms.Form) -> dict[str, Any] | None:
    if form.cleaned_data.get("die__source") != "entered":
        return {"source": "rolled"}
    v = form.cleaned_data.get("die__value")
    if v is None:
        form.add_error("die__value", _t("Введите значение кубика за столом (1–6).", "Enter the face rolled (1–6)."))
        return None
    return {"value": v, "source": "entered"}


class _FowForm(forms.Form):
    default_renderer = FAST_RENDERER
    event_type = ""

    def __init__(self, data: Any = None, *, panel: Panel, prefix: str, **kw: Any) -> None:
        super().__init__(data, prefix=prefix, **kw)
        self.panel = panel

    def distance_field(self, label_ru: str, label_en: str, *, required: bool = True,
                       limit: float | None = None) -> forms.FloatField:
        return forms.FloatField(
            label=f"{_t(label_ru, label_en)}, {self.panel.units()}", min_value=0, max_value=limit, required=required,
            widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal", "class": "inches"}))


class FowMoveForm(_FowForm):
    """A team's move, At the Double if ticked (G-F1 Movement; F-DBL-1 twice as far, F-DBL-6 not
    closer than 8"/20 cm to the enemy, F-DBL-7 not from a Pinned Down platoon)."""

    event_type = "team_moved"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        choices = []
        for tid, m in p.movers.items():
            double = (_t(f", С Удвоенной Скоростью до {p.dist(m.double)}", f", At the Double up to {p.dist(m.double)}")
                      if m.double is not None else _t(", взвод Прижат Огнём", ", platoon Pinned Down"))
            choices.append((tid, f"{p.team(tid)} — {_t('до', 'up to')} {p.dist(m.limit)}{double}"))
        most = max([m.double or m.limit for m in p.movers.values()], default=None)
        self.fields["team"] = forms.ChoiceField(label=_t("Кто движется", "Who moves"),
                                                choices=[("", BLANK), *_sorted(choices)])
        self.fields["distance"] = self.distance_field("Расстояние", "Distance", limit=most)
        self.fields["at_the_double"] = forms.BooleanField(label=_t("С Удвоенной Скоростью (F-DBL-1)",
                                                                   "At the Double (F-DBL-1)"), required=False)
        self.fields["closest_enemy"] = self.distance_field(
            "Ближе всего к врагу (С Удвоенной Скоростью — не ближе 8″/20 см, F-DBL-6)",
            "Closest to the enemy (At the Double: not within 8″/20 cm, F-DBL-6)", required=False)
        self.fields["difficult_terrain"] = forms.BooleanField(
            label=_t("Через Труднопроходимую Местность", "Through Difficult Terrain"), required=False)
        self.fields["bulletproof_cover"] = forms.BooleanField(
            label=_t("Оканчивает в Пуленепробиваемом Укрытии", "Ends in Bulletproof Cover"), required=False)

    def clean(self) -> dict[str, Any]:
        cd = super().clean()
        m = self.panel.movers.get(cd.get("team") or "")
        if m is None or cd.get("distance") is None:
            return cd
        if cd.get("at_the_double") and m.double is None:
            self.add_error("at_the_double", _t("Взвод Прижат Огнём: С Удвоенной Скоростью нельзя (F-DBL-7).",
                                               "The platoon is Pinned Down: no move At the Double (F-DBL-7)."))
            return cd
        limit, rule = (m.double, "F-DBL-1") if cd.get("at_the_double") else (m.limit, "G-F1")
        if limit is not None and cd["distance"] > limit:
            self.add_error("distance", _t(f"Не дальше {self.panel.dist(limit)} ({rule}).",
                                          f"At most {self.panel.dist(limit)} ({rule})."))
        return cd

    def payload(self) -> dict[str, Any]:
        cd = self.cleaned_data
        out = {"team": cd["team"], "distance": cd["distance"], "at_the_double": bool(cd.get("at_the_double")),
               "difficult_terrain": bool(cd.get("difficult_terrain")),
               "bulletproof_cover": bool(cd.get("bulletproof_cover"))}
        if cd.get("closest_enemy") is not None:
            out["closest_enemy"] = cd["closest_enemy"]
        return out


class FowShotForm(_FowForm):
    """A shot with exactly the dice the rules give (G-F1 Rate of Fire, F-DIG-6 after digging,
    F-DBL-10 doubled at a team that moved At the Double, F-DBL-11 not for a bombardment or an air
    attack), rolled by the service or entered from the table; then what the table decided (G-F1)."""

    event_type = "team_shot"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        shooters = [(tid, f"{p.team(tid)} — {p.dice_words(s.dice)}") for tid, s in p.shooters.items()]
        targets = []
        for tid in p.targets:
            label = p.team(tid)
            if offers.doubled(p.state, tid):
                label += _t(" — кубиков вдвое больше: двигался С Удвоенной Скоростью (F-DBL-10)",
                            " — twice the dice: it moved At the Double (F-DBL-10)")
            targets.append((tid, label))
        self.fields["shooter"] = forms.ChoiceField(label=_t("Кто стреляет (кубиков: Темп Стрельбы)",
                                                            "Who shoots (dice: Rate of Fire)"),
                                                   choices=[("", BLANK), *_sorted(shooters)])
        self.fields["target"] = forms.ChoiceField(label=_t("Цель", "Target"), choices=[("", BLANK), *_sorted(targets)])
        self.fields["kind"] = forms.ChoiceField(
            label=_t("Огонь", "Fire"), initial="direct",
            choices=[(k, term("fow_fire", k, get_language()).capitalize()) for k in ("direct", "artillery", "aircraft")])
        self.fields["distance"] = self.distance_field("Дистанция до цели", "Range to the target", required=False)
        self.fields["dice__source"] = forms.ChoiceField(
            label=_t("Кубики", "Dice"), initial="rolled", widget=forms.Select(attrs={"class": "die-source"}),
            choices=[("rolled", _t("бросает сервис (сколько положено)", "rolled by the service (as many as due)")),
                     ("entered", _t("с кубиков за столом", "entered from the table"))])
        self.fields["dice__faces"] = forms.CharField(
            label=_t("Значения за столом, через пробел", "Faces rolled at the table, space separated"), required=False,
            max_length=200, widget=forms.TextInput(attrs={"inputmode": "numeric", "class": "die-value"}))
        self.fields["hits"] = forms.IntegerField(label=_t("Попаданий (решает стол, G-F1)",
                                                          "Hits (the table decides, G-F1)"),
                                                 required=False, min_value=0, max_value=40)
        self.fields["result"] = forms.ChoiceField(
            label=_t("Итог для цели (решает стол)", "Result for the target (the table decides)"), required=False,
            choices=[("", BLANK), *[(k, term("fow_result", k, get_language()))
                                    for k in ("miss", "saved", "bailed_out", "destroyed")]])
        self.fields["pinned"] = forms.BooleanField(label=_t("Взвод цели Прижат Огнём (Pinned Down)",
                                                            "The target's platoon is Pinned Down"), required=False)
        self.dice: list[dict[str, Any]] = []

    def clean(self) -> dict[str, Any]:
        cd = super().clean()
        p = self.panel
        shooter, target = cd.get("shooter"), cd.get("target")
        if not shooter or not target:
            return cd
        n, rule = offers.shot_dice(p.state, shooter, target, cd.get("kind") or "direct", p.rules)
        if cd.get("dice__source") == "entered":
            faces = (cd.get("dice__faces") or "").replace(",", " ").split()
            values = [ascii_int(f) for f in faces]
            if len(faces) != n or not all(v is not None and 1 <= v <= 6 for v in values):
                self.add_error("dice__faces", _t(f"Стрелок бросает {n} куб. ({rule}): значений от 1 до 6 нужно ровно {n}.",
                                                 f"The shooter rolls {n} dice ({rule}): enter exactly {n} faces, 1 to 6."))
                return cd
            self.dice = [{"value": v, "source": "entered"} for v in values]
        else:
            self.dice = [{"source": "rolled"} for _ in range(n)]
        if cd.get("hits") is not None and cd["hits"] > n:
            self.add_error("hits", _t(f"Попаданий не больше, чем кубиков ({n}).", f"No more hits than dice ({n})."))
        return cd

    def payload(self) -> dict[str, Any]:
        cd = self.cleaned_data
        out: dict[str, Any] = {"shooter": cd["shooter"], "target": cd["target"], "dice": self.dice,
                               "kind": cd.get("kind") or "direct", "pinned": bool(cd.get("pinned"))}
        for key in ("distance", "hits"):
            if cd.get(key) is not None:
                out[key] = cd[key]
        if cd.get("result"):
            out["result"] = cd["result"]
        return out


class FowAssaultForm(_FowForm):
    """Teams launch an assault on an enemy platoon (G-F1; F-DBL-8 not after At the Double)."""

    event_type = "assault_launched"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        self.fields["teams"] = forms.MultipleChoiceField(
            label=_t("Атакующие", "Assaulting teams"), widget=forms.CheckboxSelectMultiple,
            choices=_sorted([(tid, p.team(tid)) for tid in p.assaulters]))
        enemy = "defender" if p.side == "attacker" else "attacker"
        platoons = [(pid, p.n.platoon(pid)) for pid, x in p.state.platoons.items() if x.side == enemy
                    and any(not p.state.teams[t].destroyed for t in x.teams if t in p.state.teams)]
        self.fields["against"] = forms.ChoiceField(label=_t("Атакуемый взвод", "Platoon assaulted"), required=False,
                                                   choices=[("", BLANK), *_sorted(platoons)])

    def payload(self) -> dict[str, Any]:
        cd = self.cleaned_data
        return {"teams": list(cd["teams"]), **({"against": cd["against"]} if cd.get("against") else {})}


class FowGroundForm(_FowForm):
    """Teams that neither moved nor shot this turn Go to Ground (G-F1; F-DIG-16 dug-in teams may)."""

    event_type = "went_to_ground"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        self.fields["teams"] = forms.MultipleChoiceField(
            label=_t("Залегают (не двигались и не стреляли)", "Going to Ground (neither moved nor shot)"),
            widget=forms.CheckboxSelectMultiple, choices=_sorted([(tid, p.team(tid)) for tid in p.grounders]))

    def payload(self) -> dict[str, Any]:
        return {"teams": list(self.cleaned_data["teams"])}


class FowDigForm(_FowForm):
    """A platoon Digs In instead of moving: its Skill test (F-DIG-1, F-DIG-3); the re-roll with a
    Pioneer Supply vehicle (F-DIG-10) and teams in water or cover are in the full form."""

    event_type = "dig_in_attempted"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        self.fields["platoon"] = forms.ChoiceField(label=_t("Взвод", "Platoon"), choices=[
            ("", BLANK), *_sorted([(pid, p.n.platoon(pid)) for pid in p.diggers])],
            # F-DIG-9: how the table shows the result
            help_text=_t("Окопавшихся отмечают маркером Окапывания у Командного отделения взвода или у каждой "
                         "команды (F-DIG-9).", "Dug In teams are shown by a Dug In marker beside the platoon's "
                         "Command team, or one beside each team (F-DIG-9)."))
        _die_fields(self, _t("Тест на Умение", "Skill test"))

    def payload(self) -> dict[str, Any]:
        return {"platoon": self.cleaned_data["platoon"], "die": _die(self)}


class FowDigRerollForm(_FowForm):
    """The re-roll of a platoon's failed Dig In test, recorded after the attempt, with a Pioneer Supply
    vehicle within 2"/5 cm of its Command team (F-DIG-10)."""

    event_type = "dig_in_rerolled"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        self.fields["platoon"] = forms.ChoiceField(label=_t("Взвод (тест провален)", "Platoon (test failed)"), choices=[
            ("", BLANK), *_sorted([(pid, p.n.platoon(pid)) for pid in p.rerollers])])
        self.fields["pioneer_supply_distance"] = self.distance_field(
            "От Командного отделения до Сапёрной техники Снабжения (не дальше 2″/5 см)",
            "Command team to the Pioneer Supply vehicle (within 2″/5 cm)")
        _die_fields(self, _t("Переброс теста на Умение", "Skill test re-roll"))

    def payload(self) -> dict[str, Any]:
        cd = self.cleaned_data
        return {"platoon": cd["platoon"], "die": _die(self), "pioneer_supply_distance": cd["pioneer_supply_distance"]}


class FowTrainForm(_FowForm):
    """The armoured train moves along its own line, forward or back, at most 16"/40 cm a turn
    (F-TRAIN-19), pushing Wreckage off the track (F-TRAIN-23); off the table, it has left (F-TRAIN-22)."""

    event_type = "train_moved"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        p = self.panel
        self.fields["train"] = forms.ChoiceField(label=_t("Бронепоезд", "Armoured train"), choices=[
            ("", BLANK), *_sorted([(k, f"{p.n.platoon(k)} — {_t('до', 'up to')} {p.dist(v)}")
                                   for k, v in p.trains.items()])])
        self.fields["distance"] = self.distance_field("Расстояние по Линии", "Distance along the line",
                                                      limit=max(p.trains.values(), default=None))
        self.fields["direction"] = forms.ChoiceField(label=_t("Направление", "Direction"), initial="forward",
                                                     choices=[("forward", _t("вперёд", "forward")),
                                                              ("backward", _t("назад", "backward"))])
        wrecks = [(tid, p.n.team(tid)) for tid, t in p.state.teams.items() if t.wreck and t.destroyed]
        if wrecks:
            self.fields["wrecks_pushed"] = forms.MultipleChoiceField(
                label=_t("Сталкивает с пути Обломки (F-TRAIN-23)", "Pushes Wreckage off the track (F-TRAIN-23)"),
                widget=forms.CheckboxSelectMultiple, choices=_sorted(wrecks), required=False)
        self.fields["leaves_table"] = forms.BooleanField(
            label=_t("Часть поезда уходит со стола (F-TRAIN-22)", "Part of the train goes off the table (F-TRAIN-22)"),
            required=False)

    def payload(self) -> dict[str, Any]:
        cd = self.cleaned_data
        return {"train": cd["train"], "distance": cd["distance"], "direction": cd["direction"],
                "wrecks_pushed": list(cd.get("wrecks_pushed") or []), "leaves_table": bool(cd.get("leaves_table"))}


class FowStepForm(_FowForm):
    """The side ends the current Step of its turn and the next begins (G-F1: Movement, Shooting, Assault in
    that order), for a side that goes on without the act that would begin it (a shot, an assault); the
    forms of an earlier Step are then no longer offered, as the engine refuses their acts."""

    event_type = "step_ended"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        step = self.panel.state.step
        nxt = {"movement": "shooting", "shooting": "assault"}.get(step, "")
        lang = get_language()
        self.fields["step"] = forms.ChoiceField(
            label=_t(f"Окончен (дальше — {term('fow_step', nxt, lang)})", f"Ends (then the {term('fow_step', nxt, lang)})"),
            choices=[(step, term("fow_step", step, lang))], initial=step)

    def payload(self) -> dict[str, Any]:
        return {"side": self.panel.side, "step": self.cleaned_data["step"]}


@dataclass(frozen=True)
class Spec:
    cls: type[_FowForm]
    title_ru: str
    title_en: str
    offered: Callable[[Panel], bool]

    @property
    def event_type(self) -> str:
        return self.cls.event_type


FORMS: dict[str, Spec] = {
    "fow_move": Spec(FowMoveForm, "Движение (и С Удвоенной Скоростью)", "Move (or At the Double)",
                     lambda p: bool(p.movers)),
    "fow_shot": Spec(FowShotForm, "Стрельба", "Shoot", lambda p: bool(p.shooters) and bool(p.targets)),
    "fow_assault": Spec(FowAssaultForm, "Атака в ближнем бою", "Assault", lambda p: bool(p.assaulters)),
    "fow_dig": Spec(FowDigForm, "Окопаться", "Dig In", lambda p: bool(p.diggers)),
    "fow_dig_reroll": Spec(FowDigRerollForm, "Переброс Окапывания (Сапёрная техника Снабжения)",
                           "Re-roll Dig In (Pioneer Supply)", lambda p: bool(p.rerollers)),
    "fow_ground": Spec(FowGroundForm, "Залечь", "Go to Ground", lambda p: bool(p.grounders)),
    "fow_train": Spec(FowTrainForm, "Бронепоезд: движение по Линии", "Armoured train: move along the line",
                      lambda p: bool(p.trains)),
    "fow_step": Spec(FowStepForm, "Окончить Шаг хода", "End the Step", lambda p: p.state.step in ("movement", "shooting")),
}
# The generic form this panel replaces: it offered any number of dice and let the engine refuse.
REPLACED = ("team_shot",)


def title(form_id: str) -> str:
    spec = FORMS[form_id]
    return _t(spec.title_ru, spec.title_en)


def event_type(form_id: str) -> str:
    return FORMS[form_id].event_type


def form_ids(allowed: list[str], state: dict[str, Any], role: Any, table: Table,
             rules: dict[str, Any] | None) -> tuple[list[str], list[str]]:
    """(quick forms, full forms) of a FoW battle for this person now: the common actions the side
    to move may take (and «Ход»), then every allowed type but the ones the panel replaces."""
    quick: list[str] = []
    moving = state.get("status") == "running" and (role.is_game_master or state.get("side_to_move") == role.side)
    if moving:
        p = panel(table, rules)
        quick = [fid for fid, spec in FORMS.items() if spec.event_type in allowed and spec.offered(p)]
        if "turn_ended" in allowed:
            quick.append("quick_turn")
    return quick, [t for t in allowed if t not in REPLACED]


def build(form_id: str, data: Any, *, table: Table, rules: dict[str, Any] | None) -> _FowForm:
    return FORMS[form_id].cls(data, panel=panel(table, rules), prefix=form_id)


def unused(table: Table, rules: dict[str, Any] | None) -> list[str]:
    """The side's live teams that neither moved, shot nor assaulted this turn (what «Ход» leaves unused)."""
    p = panel(table, rules)
    ply = p.state.ply
    return sorted(p.n.team(t.id) for t in offers.live(p.state, p.side)
                  if ply not in (t.moved_ply, t.shot_ply, t.assault_ply, t.dig_ply) and not t.gone_to_ground)


__all__ = ["FORMS", "REPLACED", "build", "event_type", "form_ids", "panel", "title", "unused"]
