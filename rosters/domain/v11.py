"""The v11.2 roster rules: pricing and every ``roster`` rule of the catalog.

``_Check(spec, rules).run()`` prices a roster and returns *every* violation at
once, each with its rule ID, the unit it concerns and a message in Russian and
English. Warnings (advisory rules such as V-MOTOR-4) never block a submission;
errors do. ``validation.validate`` is the entry point; ``fow._FowCheck`` and
``validation.officers_missing`` reuse this class's indexes of the roster.
"""
from __future__ import annotations

from collections import defaultdict

from battles.engine.weapons import has_smoke, roster_weapon

from .specs import (
    ARMOURED,
    GUN_TYPES,
    RANK_LEVEL,
    RANK_RU,
    SENIOR,
    SQUAD_KINDS,
    UNIT_KINDS,
    VEHICLE_KINDS,
    ClassData,
    FighterSpec,
    Report,
    RosterSpec,
    Rules,
    UnitSpec,
    VehicleSpec,
    Violation,
)

# V-TG-1 group type -> V-TG-2 class category it needs two of
# V-PLT-3 (reading): where each unit may stand in the chain captain – lieutenant – sergeant – corporal
ALLOWED_PARENTS = {
    "company": (None,),
    "platoon": (None, "company"),
    "squad": (None, "platoon"),
    "hq_squad": (None, "company"),
    "tactical_group": (None, "platoon", "company"),
    "motorised": (None, "platoon", "company"),
}
GROUP_CATEGORY = {"at": "at_grenadier", "recon": "scout", "medical": "medic", "sniper": "sniper", "mg": "mg",
                  "flame": "flamethrower"}
# V-SQUAD-7…16: category -> (limit attribute, rule id, ru, en)
SQUAD_MAXIMA = [
    ("sniper", "squad_max_sniper", "V-SQUAD-7", "снайперов", "snipers"),
    ("mg", "squad_max_mg", "V-SQUAD-8", "пулемётов", "machine guns"),
    ("scout", "squad_max_scout", "V-SQUAD-9", "разведчиков", "scouts"),
    ("sapper", "squad_max_sapper", "V-SQUAD-12", "сапёров", "sappers"),
    ("medic", "squad_max_medic", "V-SQUAD-13", "медиков", "medics"),
    ("at_grenadier", "squad_max_at_grenadier", "V-SQUAD-14", "гранатомётов (в т. ч. ПТР)",
     "grenade launchers (incl. AT rifles)"),
    ("flamethrower", "squad_max_flamethrower", "V-SQUAD-15", "огнемётов", "flamethrowers"),
    ("radio", "squad_max_radio", "V-SQUAD-16", "радистов", "radio operators"),
]


class _Check:
    def __init__(self, spec: RosterSpec, rules: Rules) -> None:
        self.spec, self.rules = spec, rules
        self.out: list[Violation] = []
        self.units = {u.ref: u for u in spec.units}
        self.children: dict[str | None, list[UnitSpec]] = defaultdict(list)
        for u in spec.units:
            self.children[u.parent].append(u)
        self.vehicles = {v.ref: v for v in spec.vehicles}
        self.vehicles_in: dict[str | None, list[VehicleSpec]] = defaultdict(list)
        for v in spec.vehicles:
            self.vehicles_in[v.unit].append(v)
        self.members: dict[str | None, list[FighterSpec]] = defaultdict(list)  # unit -> fighters (not crews)
        self.crew: dict[str, list[FighterSpec]] = defaultdict(list)
        for f in spec.fighters:
            if f.vehicle is not None:
                self.crew[f.vehicle].append(f)
            else:
                self.members[f.unit].append(f)

    def add(self, rule_id: str, ru: str, en: str, unit: str | None = None, *, warning: bool = False) -> None:
        name = ""
        if unit is not None and unit.startswith("vehicle:"):
            v = self.vehicles.get(unit[8:])
            name = v.name if v else ""
        elif unit is not None and unit in self.units:
            name = self.units[unit].name
        self.out.append(Violation(rule_id, ru, en, unit, name, "warning" if warning else "error"))

    def cls(self, f: FighterSpec) -> ClassData | None:
        return self.rules.classes.get(f.cls)

    def rank(self, f: FighterSpec) -> str:
        c = self.cls(f)
        return c.rank if c else ""

    def category(self, f: FighterSpec) -> str:
        c = self.cls(f)
        return c.category if c else ""

    # pricing ----------------------------------------------------------------
    def vehicle_cost(self, v: VehicleSpec) -> int:
        r = self.rules
        key = f"vehicle:{v.ref}"
        # V-VEH-3: armour class cost + gun class cost (G-5); V-VDMG-1: every vehicle has an armour class.
        if v.armour_class is None or v.armour_class not in r.armour_cost:
            self.add("V-VDMG-1", f"Нет такого класса брони: {v.armour_class}.",
                     f"No such armour class: {v.armour_class}.", key)
            cost = 0
        else:
            cost = r.armour_cost[v.armour_class]
        if v.gun_class is not None:
            if v.gun_class in r.gun_cost:
                cost += r.gun_cost[v.gun_class]
            else:  # V-VEH-2
                self.add("V-VEH-2", f"Нет такого класса орудия: {v.gun_class}.",
                         f"No such gun class: {v.gun_class}.", key)
        elif v.kind == "artillery":  # V-VEH-2: an artillery piece is its gun
            self.add("V-VEH-2", "У артиллерийского орудия должен быть класс орудия.",
                     "An artillery piece needs a gun class.", key)
        if v.side_skirts:  # V-VDMG-9: +3 PP (seed) on the armour, armoured vehicles only
            cost += r.side_skirts_cost
            if v.kind not in ARMOURED:
                self.add("V-VDMG-9", "Бортовые экраны ставятся только на бронетехнику.",
                         "Side skirts fit armoured vehicles only.", key)
        seen: set[str] = set()
        for code in v.options:  # V-VEH-6/7, V-BUNK-7, V-AA-7: bought with PP (G-16)
            opt = r.options.get(code)
            if opt is None or code in seen:
                self.add("V-VEH-7", f"Неизвестная или повторная специализация: {code}.",
                         f"Unknown or repeated specialisation: {code}.", key)
                continue
            seen.add(code)
            cost += opt.cost
            if opt.applies_to == "vehicle" and v.kind == "pillbox":
                self.add("V-BUNK-7", f"ДОТу можно купить только «Корректировщик», не «{code}».",
                         f"A pillbox may buy only Spotter, not '{code}'.", key)
            if opt.applies_to == "aa_gun" and not (v.kind == "artillery" and v.gun_type == "aa"):
                self.add("V-AA-7", "Огонь ПТ покупается только для зенитной пушки (не автомата).",
                         "AT fire may be bought only for an AA gun (not an autocannon).", key)
        return cost

    def fighter_cost(self, f: FighterSpec) -> int:
        c = self.cls(f)
        if c is None:
            self.add("V-TURN-1", f"Неизвестный класс бойца: {f.cls}.", f"Unknown fighter class: {f.cls}.", f.unit)
            return 0
        if f.vehicle is not None:
            v = self.vehicles.get(f.vehicle)
            # V-CREW-2: a vehicle crew is free, a gun crew is paid (G-5: at its class cost).
            if v is not None and v.kind != "artillery":
                return 0
        return c.cost * f.count

    # structure --------------------------------------------------------------
    def run(self) -> Report:
        r = self.rules
        unit_costs: dict[str, int] = defaultdict(int)
        vehicle_costs: dict[str, int] = {}
        smoke: dict[str, bool] = {}
        total = 0
        for v in self.spec.vehicles:
            if v.kind not in VEHICLE_KINDS or v.gun_type not in GUN_TYPES:  # V-VEH-1
                self.add("V-VEH-1", f"Неизвестный вид техники: {v.kind}.", f"Unknown vehicle type: {v.kind}.",
                         f"vehicle:{v.ref}")
            if v.unit is not None and v.unit not in self.units:
                self.add("V-VEH-1", "Техника приписана к несуществующему подразделению.",
                         "The vehicle belongs to a unit that does not exist.", f"vehicle:{v.ref}")
            cost = self.vehicle_cost(v)
            crew_cost = sum(self.fighter_cost(f) for f in self.crew.get(v.ref, ()))
            vehicle_costs[v.ref] = cost + crew_cost
            total += cost + crew_cost
            if v.unit is not None:
                unit_costs[v.unit] += cost + crew_cost
            # V-SMOKE-1 by the engine's weapon table: guns of class 3+ except AT guns (an AA autocannon is a
            # heavy MG, V-AA-5); every howitzer (the rocket mortar too, V-ROCKET-1) and mortar
            weapon = roster_weapon(v.kind, v.gun_type, v.gun_class)
            smoke[f"vehicle:{v.ref}"] = has_smoke(weapon, v.gun_class, r.smoke_min_gun_class)
            self.check_crew(v)
        for f in self.spec.fighters:
            if f.vehicle is not None:
                if f.vehicle not in self.vehicles:
                    self.add("V-CREW-1", "Экипаж несуществующей техники.", "Crew of a vehicle that does not exist.")
                continue
            cost = self.fighter_cost(f)
            total += cost
            if f.unit is not None:
                unit_costs[f.unit] += cost
                if f.unit not in self.units:
                    self.add("V-OFF-8", "Бойцы приписаны к несуществующему подразделению.",
                             "Fighters belong to a unit that does not exist.")
        for u in self.spec.units:
            if u.kind not in UNIT_KINDS:
                self.add("V-TURN-1", f"Неизвестный вид подразделения: {u.kind}.", f"Unknown unit type: {u.kind}.",
                         u.ref)
            parent = self.units.get(u.parent) if u.parent is not None else None
            if u.parent is not None and parent is None:
                self.add("V-PLT-3", "Подразделение входит в несуществующее подразделение.",
                         "The unit is part of a unit that does not exist.", u.ref)
            elif u.kind in ALLOWED_PARENTS and (parent.kind if parent else None) not in ALLOWED_PARENTS[u.kind]:
                self.add("V-PLT-3", f"«{u.name}» не может входить в «{parent.name}».",
                         f"'{u.name}' cannot be part of '{parent.name}'.", u.ref)
            upgrades = self.check_upgrades(u)
            unit_costs[u.ref] += upgrades
            total += upgrades
            smoke[u.ref] = u.kind in SQUAD_KINDS or u.kind == "tactical_group"  # V-SMOKE-1
            {"company": self.check_company, "platoon": self.check_platoon, "squad": self.check_squad,
             "hq_squad": self.check_squad if r.hq_squad_rules == "squad" else lambda u: None,  # G-19
             "tactical_group": self.check_squad if (  # G-19: a company's reinforcement group
                 parent is not None and parent.kind == "company" and r.reinforcement_group_rules == "squad")
             else self.check_group,
             "motorised": self.check_motorised}.get(u.kind, lambda u: None)(u)
            if u.kind == "tactical_group" and unit_costs[u.ref] > r.tactical_group_budget:
                # V-TG-6: the standard cost of a group; advisory inside a larger force (V-PP-1 binds alone)
                self.add("V-TG-6", f"Группа стоит {unit_costs[u.ref]} ОП, стандарт — {r.tactical_group_budget}.",
                         f"The group costs {unit_costs[u.ref]} PP; the standard is {r.tactical_group_budget}.",
                         u.ref, warning=True)
        # V-OFF-8: only lieutenants and captains may stand outside any unit.
        loose = [f for f in self.members.get(None, ()) if self.rank(f) not in SENIOR]
        if loose:
            self.add("V-OFF-8", "Вне подразделений могут быть только лейтенанты и капитаны.",
                     "Only lieutenants and captains may stand outside any unit.")
        total += self.check_air_support()
        budget, senior = self.check_budget(total)
        return Report(total, budget, senior, self.out, dict(unit_costs), vehicle_costs, smoke)

    def check_air_support(self) -> int:
        """V-FORM-2: air support is a formulary card; G-8 placeholder: 8 PP each, at most one (one sortie per
        battle). Returns the cards' cost."""
        r, cards = self.rules, self.spec.air_support
        if cards > r.air_support_max:
            self.add("V-FORM-2", f"Карточек авиаподдержки не больше {r.air_support_max}, сейчас {cards} (G-8).",
                     f"At most {r.air_support_max} air-support card(s); there are {cards} (G-8).")
        return cards * r.air_support_cost

    def check_budget(self, total: int) -> tuple[int, str | None]:
        # V-PP-5: the force is built on its most senior officer's PP only; others' PP never add.
        ranks = [self.rank(f) for f in self.spec.fighters if self.rank(f)]
        if not ranks:
            self.add("V-PP-5", "В отряде нет офицера: бюджет 0 ОП.", "The force has no officer: the budget is 0 PP.")
            return 0, None
        senior = max(ranks, key=RANK_LEVEL.__getitem__)
        budget = self.rules.budget_for(senior)  # V-PP-1…4
        if self.spec.side == "attacker" and self.spec.in_campaign:
            budget += self.rules.attacker_bonus  # V-PP-6
        if total > budget:  # V-TURN-1: bought within the budget
            rule = f"V-PP-{RANK_LEVEL[senior] + 1}"
            self.add(rule, f"Стоимость {total} ОП превышает бюджет {budget} ОП ({RANK_RU[senior]}).",
                     f"The cost {total} PP exceeds the budget of {budget} PP ({senior}).")
        return budget, senior

    def check_upgrades(self, u: UnitSpec) -> int:
        # V-UPG-3: squads and separate tactical groups only; V-UPG-4: one each.
        if u.upgrades and u.kind not in (*SQUAD_KINDS, "tactical_group"):
            self.add("V-UPG-3", "Улучшения доступны только пехотным отделениям и тактическим группам.",
                     "Upgrades are only for infantry squads and tactical groups.", u.ref)
        limited = u.kind != "tactical_group" or self.rules.group_upgrade_limit
        if limited and len(u.upgrades) > self.rules.upgrades_per_unit:
            self.add("V-UPG-4", f"Не больше {self.rules.upgrades_per_unit} улучшения на подразделение.",
                     f"At most {self.rules.upgrades_per_unit} upgrade per unit.", u.ref)
        cost = 0
        for code in u.upgrades:  # V-UPG-1: bought as a card, at its cost (G-15)
            if code in self.rules.upgrades:
                cost += self.rules.upgrades[code]
            else:
                self.add("V-UPG-1", f"Неизвестная карточка улучшения: {code}.", f"Unknown upgrade card: {code}.",
                         u.ref)
        return cost

    def officers(self, fighters, *ranks: str) -> int:
        return sum(f.count for f in fighters if self.rank(f) in ranks)

    def check_company(self, u: UnitSpec) -> None:
        r = self.rules
        kids = self.children.get(u.ref, [])
        platoons = sum(1 for k in kids if k.kind == "platoon")
        groups = sum(1 for k in kids if k.kind == "tactical_group")
        hq = sum(1 for k in kids if k.kind == "hq_squad")
        if platoons < r.company_min_platoons:  # V-PLT-2 (reading: 2–3)
            self.add("V-PLT-2", f"В роте должно быть не меньше {r.company_min_platoons} взводов, сейчас {platoons}.",
                     f"A company needs at least {r.company_min_platoons} platoons; it has {platoons}.", u.ref)
        if platoons > r.company_max_platoons:  # V-RANK-8
            self.add("V-RANK-8", f"В роте не больше {r.company_max_platoons} взводов, сейчас {platoons}.",
                     f"A company has at most {r.company_max_platoons} platoons; it has {platoons}.", u.ref)
        # V-RANK-8 reading: 2 reinforcement groups, or one HQ squad in their place.
        if groups > r.company_max_groups or hq > r.company_max_hq_squads or (hq and groups):
            self.add("V-RANK-8", f"Рота: до {r.company_max_groups} групп усиления или {r.company_max_hq_squads} "
                     "штабное отделение вместо них.",
                     f"A company has up to {r.company_max_groups} reinforcement groups, or "
                     f"{r.company_max_hq_squads} HQ squad instead.", u.ref)
        captains = self.officers(self.members.get(u.ref, ()), "captain")
        if captains != 1:  # V-PLT-3: 1 captain – 2 lieutenants – 4 sergeants – 4 corporals
            self.add("V-PLT-3", f"Ротой командует один капитан, сейчас {captains}.",
                     f"A company is commanded by one captain; it has {captains}.", u.ref)

    def check_platoon(self, u: UnitSpec) -> None:
        r = self.rules
        kids = self.children.get(u.ref, [])
        squads = sum(1 for k in kids if k.kind == "squad")
        groups = sum(1 for k in kids if k.kind == "tactical_group")
        if squads < r.platoon_min_squads:  # V-PLT-1
            self.add("V-PLT-1", f"Во взводе должно быть не меньше {r.platoon_min_squads} отделений, сейчас {squads}.",
                     f"A platoon needs at least {r.platoon_min_squads} squads; it has {squads}.", u.ref)
        if squads > r.platoon_max_squads:  # V-RANK-7 (reading: 2–3)
            self.add("V-RANK-7", f"Во взводе не больше {r.platoon_max_squads} отделений, сейчас {squads}.",
                     f"A platoon has at most {r.platoon_max_squads} squads; it has {squads}.", u.ref)
        if groups > r.platoon_max_groups:  # V-PLT-1 reading: at most 1 tactical group
            self.add("V-PLT-1", f"Во взводе не больше {r.platoon_max_groups} тактической группы, сейчас {groups}.",
                     f"A platoon has at most {r.platoon_max_groups} tactical group; it has {groups}.", u.ref)
        # V-RANK-7: a lieutenant commands the platoon. It does not cap them: V-OFF-7 lets a lieutenant join any
        # unit («любого подразделения»), so a second one is attached and does not take command (reading).
        if not self.officers(self.members.get(u.ref, ()), "lieutenant"):
            self.add("V-RANK-7", "Взводом командует лейтенант, а во взводе его нет.",
                     "A platoon is commanded by a lieutenant, and it has none.", u.ref)

    def check_squad(self, u: UnitSpec) -> None:
        r = self.rules
        members = self.members.get(u.ref, ())
        # V-OFF-7: an attached lieutenant or captain breaks no squad limit.
        counted = [f for f in members if self.rank(f) not in SENIOR]
        men = sum(f.count for f in counted)
        if men > r.squad_max_men:  # V-SQUAD-11, V-RANK-6
            self.add("V-SQUAD-11", f"В отделении не больше {r.squad_max_men} человек, сейчас {men}.",
                     f"A squad has at most {r.squad_max_men} men; it has {men}.", u.ref)
        by_cat: dict[str, int] = defaultdict(int)
        for f in counted:
            by_cat[self.category(f)] += f.count
        for cat, attr, rule, ru, en in SQUAD_MAXIMA:  # V-SQUAD-7…16
            limit = getattr(r, attr)
            if by_cat[cat] > limit:
                self.add(rule, f"В отделении не больше {limit} {ru}, сейчас {by_cat[cat]}.",
                         f"A squad has at most {limit} {en}; it has {by_cat[cat]}.", u.ref)
        officers = self.officers(counted, "corporal", "sergeant")
        if officers > r.squad_max_officer:  # V-SQUAD-10
            self.add("V-SQUAD-10", f"В отделении не больше {r.squad_max_officer} офицеров, сейчас {officers}.",
                     f"A squad has at most {r.squad_max_officer} officers; it has {officers}.", u.ref)
        sergeants = [f for f in counted if self.rank(f) == "sergeant"]
        corporals = [f for f in counted if self.rank(f) == "corporal"]
        if not sergeants or not corporals:  # V-SQUAD-1
            self.add("V-SQUAD-1", "Отделением командуют сержант и капрал.",
                     "A squad is commanded by a sergeant and a corporal.", u.ref)
        teams: dict[int, int] = defaultdict(int)
        for f in counted:
            teams[f.fire_team or 1] += f.count
        if any(t not in (1, 2) for t in teams):  # V-SQUAD-3
            self.add("V-SQUAD-3", "Отделение нельзя делить больше чем на 2 группы.",
                     "A squad may not be divided into more than 2 groups.", u.ref)
        for t in (1, 2):  # V-SQUAD-1, V-RANK-5: two fire teams of 5–7 men
            if not r.fire_team_min <= teams[t] <= r.fire_team_max:
                self.add("V-SQUAD-1", f"В огневой группе {t} должно быть {r.fire_team_min}–{r.fire_team_max} "
                         f"человек, сейчас {teams[t]}.",
                         f"Fire team {t} needs {r.fire_team_min}–{r.fire_team_max} men; it has {teams[t]}.", u.ref)
        # V-SQUAD-2: one sergeant; the corporal leads the other fire team under him.
        if sum(f.count for f in sergeants) > 1 or (
                sergeants and corporals
                and {f.fire_team or 1 for f in sergeants} & {f.fire_team or 1 for f in corporals}):
            self.add("V-SQUAD-2", "Один сержант; капрал командует другой огневой группой и подчинён сержанту.",
                     "One sergeant; the corporal leads the other fire team, under the sergeant.", u.ref)
        vehicles = self.vehicles_in.get(u.ref, ())
        if len(vehicles) > 1:  # V-SQUAD-5
            self.add("V-SQUAD-5", f"В отделении не больше 1 единицы техники или орудия, сейчас {len(vehicles)}.",
                     f"A squad has at most 1 vehicle or gun; it has {len(vehicles)}.", u.ref)
        top = r.squad_vehicle_max_class
        for v in vehicles:
            cls1 = (v.gun_class or 1) <= top if v.kind == "artillery" else (v.armour_class or 99) <= top
            if not cls1:  # V-SQUAD-5 reading: gun class 1 or armour class 1
                self.add("V-SQUAD-5", f"Отделению доступна только техника или орудие класса до {top}.",
                         f"A squad may include only a vehicle or gun of class up to {top}.", u.ref)
            if self.crew.get(v.ref):  # V-SQUAD-6: the corporal and riflemen crew it
                self.add("V-SQUAD-6", "Экипаж техники отделения — капрал и стрелки отделения, отдельно не покупается.",
                         "A squad's vehicle is crewed by its corporal and riflemen; no crew is bought.", u.ref)

    def check_group(self, u: UnitSpec) -> None:
        r = self.rules
        members = self.members.get(u.ref, ())
        if u.group_kind not in GROUP_CATEGORY:  # V-TG-1
            self.add("V-TG-1", "Укажите вид группы: ПТ, разведка, медицинская, снайперская, пулемётная, огнемётная.",
                     "Choose the group type: AT, recon, medical, sniper, MG or flamethrower.", u.ref)
        else:
            need = GROUP_CATEGORY[u.group_kind]
            have = sum(f.count for f in members if self.category(f) == need)
            if have < r.tg_min_of_kind:  # V-TG-2
                self.add("V-TG-2", f"В группе нужно не меньше {r.tg_min_of_kind} бойцов её класса, сейчас {have}.",
                         f"The group needs at least {r.tg_min_of_kind} fighters of its class; it has {have}.", u.ref)
        counted = [f for f in members if self.rank(f) not in SENIOR]  # V-OFF-7
        corporals = self.officers(counted, "corporal")
        sergeants = self.officers(counted, "sergeant")
        if corporals != 1 or sergeants:  # V-TG-4
            self.add("V-TG-4", "Группой командует один офицер в звании капрала.",
                     "A tactical group is commanded by one corporal.", u.ref)
        men = sum(f.count for f in counted if r.tg_max_includes_corporal or self.rank(f) != "corporal")
        if men > r.tg_max_men:  # V-TG-5 (reading: including the corporal), V-RANK-5
            self.add("V-TG-5", f"В группе не больше {r.tg_max_men} человек, сейчас {men}.",
                     f"A tactical group has at most {r.tg_max_men} men; it has {men}.", u.ref)

    def check_motorised(self, u: UnitSpec) -> None:
        r = self.rules
        vehicles = self.vehicles_in.get(u.ref, ())
        armoured = [v for v in vehicles if v.kind in ARMOURED]
        # V-MOTOR-1 (reading): "infantry and armour in one unit" is met by the armoured vehicles with their
        # crews, who are fighters (V-MOTOR-6): the seed's own example is a "tank squad". More infantry may
        # join the unit but is not required.
        if not armoured:
            self.add("V-MOTOR-1", "В моторизованном подразделении должна быть бронетехника.",
                     "A motorised unit needs armoured vehicles.", u.ref)
        # V-MOTOR-5 binds; V-MOTOR-3 (reading) only means any armour type is allowed.
        if len(armoured) > r.motor_max_vehicles:
            self.add("V-MOTOR-5", f"Не больше {r.motor_max_vehicles} единиц бронетехники, сейчас {len(armoured)}.",
                     f"At most {r.motor_max_vehicles} armoured vehicles; it has {len(armoured)}.", u.ref)
        if {v.kind for v in armoured} >= {"tank", "apc"}:  # V-MOTOR-4: advisory only
            self.add("V-MOTOR-4", "Желательно не совмещать танки и бронетранспортёры в одном подразделении.",
                     "Preferably do not combine tanks and APCs in one unit.", u.ref, warning=True)
        staff = list(self.members.get(u.ref, ()))
        for v in armoured:
            crew = self.crew.get(v.ref, [])
            staff += crew
            personnel = sum(f.count for f in crew if self.category(f) == "personnel")
            commanders = self.officers(crew, "corporal", "sergeant")
            if personnel != r.motor_crew_personnel or commanders != 1:  # V-MOTOR-6
                self.add("V-MOTOR-6", f"«{v.name}»: экипаж — {r.motor_crew_personnel} персонала и командир-капрал.",
                         f"'{v.name}': the crew is {r.motor_crew_personnel} personnel and a corporal commander.",
                         u.ref)
        officers = self.officers(staff, "corporal", "sergeant")
        if officers > r.motor_max_officers or self.officers(staff, "sergeant") > r.motor_max_sergeants:  # V-MOTOR-7
            self.add("V-MOTOR-7", f"Не больше {r.motor_max_officers} командиров: сержант и капралы.",
                     f"At most {r.motor_max_officers} command staff: a sergeant and corporals.", u.ref)

    def check_crew(self, v: VehicleSpec) -> None:
        key = f"vehicle:{v.ref}"
        crew = self.crew.get(v.ref, [])
        # V-CREW-1, V-PERS-1: crews are personnel plus an officer.
        if any(self.category(f) not in ("personnel", "officer") for f in crew) or \
                sum(f.count for f in crew if self.category(f) == "officer") > 1:
            self.add("V-CREW-1", "Экипаж — бойцы категории «персонал» и один офицер.",
                     "A crew is personnel fighters and one officer.", key)
        in_squad = v.unit in self.units and self.units[v.unit].kind in SQUAD_KINDS
        men = sum(f.count for f in crew)
        has_officer = any(self.category(f) == "officer" for f in crew)
        if not in_squad and (men < 2 or not has_officer):  # V-CREW-3: optional, but it limits the vehicle
            self.add("V-CREW-3", "Без экипажа из 2 человек с офицером техника не может вести огонь"
                     + (" и двигаться." if men == 0 else "."),
                     "Without a crew of 2 including an officer the vehicle cannot fire"
                     + (" or move." if men == 0 else "."), key, warning=True)
