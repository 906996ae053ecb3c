"""The Flames of War roster rules (F-SPEC-1, F-RECON-1, G-F1, G-F3): a FoW
roster is platoons of teams, priced in points."""
from __future__ import annotations

from collections import defaultdict

from .specs import FowTeamSpec, Report, UnitSpec
from .v11 import _Check

FOW_PLATOON_KINDS = ("infantry", "gun", "tank", "recon", "armoured_train", "independent", "other")
FOW_TEAM_KINDS = ("infantry", "gun", "tank", "vehicle", "train")
# F-SPEC-1: specialised troops whose rules are not in the seeds (G-F2): allowed, but played as ordinary teams.
FOW_NOT_IN_SEEDS = {
    "motorcycle_recon": ("мотоциклетная разведка", "motorcycle reconnaissance"),
    "cavalry": ("кавалерия", "cavalry"),
    "flamethrower": ("ранцевые огнемёты", "man-packed flame-throwers"),
    "flame_tank": ("огнемётные танки", "flame-thrower tanks"),
    "tank_escort": ("пехота танкового десанта", "Tank Escort infantry"),
}


class _FowCheck(_Check):
    """A FoW roster: platoons (units of kind ``fow_platoon``) of teams. Rules:
    F-SPEC-1 (the troop types), F-RECON-1 (a recon platoon is all recon teams),
    G-F3 (an armoured train: wagons, one Locomotive, tank platoons as escorts),
    G-F1 (points: a placeholder limit)."""

    def run(self) -> Report:
        r = self.rules
        unit_costs: dict[str, int] = defaultdict(int)
        total = 0
        teams_in: dict[str, list[FowTeamSpec]] = defaultdict(list)
        if self.spec.fighters or self.spec.vehicles:  # F-SPEC-1: FoW troops are teams, not fighters
            self.add("F-SPEC-1", "В составе по правилам Flames of War только взводы и отделения (команды); "
                     "бойцы и техника v11.2 здесь не покупаются.",
                     "A Flames of War roster has only platoons and teams; v11.2 fighters and vehicles "
                     "are not bought here.")
        for t in self.spec.teams:
            teams_in[t.unit].append(t)
            data = r.fow_team_types.get(t.type)
            if t.unit not in self.units:
                self.add("F-SPEC-1", "Отделение вне взвода.", "A team outside any platoon.")
            if data is None:
                self.add("F-SPEC-1", f"Неизвестный тип отделения: {t.type}.", f"Unknown team type: {t.type}.",
                         t.unit if t.unit in self.units else None)
                continue
            cost = data.cost * t.count
            total += cost
            unit_costs[t.unit] += cost
        for u in self.spec.units:
            if u.kind != "fow_platoon":
                self.add("F-SPEC-1", f"«{u.name}»: в составе Flames of War только взводы.",
                         f"'{u.name}': a Flames of War roster has only platoons.", u.ref)
                continue
            if u.fow_kind not in FOW_PLATOON_KINDS:
                self.add("F-SPEC-1", "Укажите тип взвода.", "Choose the platoon type.", u.ref)
            self.check_fow_platoon(u, teams_in.get(u.ref, []))
        if total > r.fow_points_limit:  # G-F1: the seeds give no points; the limit is a placeholder
            self.add("G-F1", f"Стоимость {total} очков превышает предел {r.fow_points_limit} очков.",
                     f"The cost {total} points exceeds the limit of {r.fow_points_limit} points.")
        return Report(total, r.fow_points_limit, None, self.out, dict(unit_costs), {}, {})

    def check_fow_platoon(self, u: UnitSpec, teams: list[FowTeamSpec]) -> None:
        types = self.rules.fow_team_types
        known = [(t, types[t.type]) for t in teams if t.type in types]
        if not teams:
            self.add("F-SPEC-1", "Во взводе нет ни одного отделения.", "The platoon has no teams.", u.ref)
        for code in sorted({d.speciality for _, d in known if d.speciality in FOW_NOT_IN_SEEDS}):
            ru, en = FOW_NOT_IN_SEEDS[code]
            self.add("F-SPEC-1", f"Правил для «{ru}» нет в сидах (G-F2): в бою это обычные отделения.",
                     f"The rules for {en} are not in the seeds (G-F2): in battle they are ordinary teams.",
                     u.ref, warning=True)
        if u.fow_kind == "recon":  # F-RECON-1: every team of a Reconnaissance platoon is a Reconnaissance team
            wrong = [d.code for _, d in known if d.speciality != "recon"]
            if wrong:
                self.add("F-RECON-1", "Во взводе разведки все отделения — разведывательные; не подходят: "
                         + ", ".join(sorted(set(wrong))) + ".",
                         "Every team of a Reconnaissance platoon is a Reconnaissance team; not one: "
                         + ", ".join(sorted(set(wrong))) + ".", u.ref)
        wagons = [(t, d) for t, d in known if d.kind == "train"]
        if u.fow_kind == "armoured_train":  # G-F3: wagon teams, exactly one Locomotive
            if len(wagons) != len(known):
                self.add("G-F3", "Бронепоезд состоит только из вагонов (бронеплощадок и Локомотива).",
                         "An armoured train is made of wagons (and its Locomotive) only.", u.ref)
            locos = sum(t.count for t, d in wagons if d.locomotive)
            if locos != 1:
                self.add("G-F3", f"У бронепоезда ровно один Локомотив, сейчас {locos}.",
                         f"An armoured train has exactly one Locomotive; it has {locos}.", u.ref)
        elif wagons:
            self.add("G-F3", "Вагоны бронепоезда бывают только во взводе «бронепоезд».",
                     "Armoured train wagons belong only in an armoured train.", u.ref)
        parent = self.units.get(u.parent) if u.parent is not None else None
        if u.parent is not None and (parent is None or parent.fow_kind != "armoured_train"
                                     or u.fow_kind != "tank"):
            # G-F3: Tank Support Platoons are ordinary tank platoons linked to the train
            self.add("G-F3", "Входить в другой взвод может только танковый взвод поддержки бронепоезда.",
                     "Only a tank platoon escorting an armoured train may be part of another platoon.", u.ref)
