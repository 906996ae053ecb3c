"""Forms of the roster builder: they parse and validate input; the views then
call the services."""
from __future__ import annotations

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, Character
from campaign.roles import is_game_master
from config.inputs import ascii_int

from .models import FowPlatoonKind, GroupKind, GunType, Side, UnitKind, VehicleKind


def _ru() -> bool:
    return (get_language() or "ru").startswith("ru")


def _name(obj) -> str:
    return obj.name_ru if _ru() else obj.name_en


class CampaignSelect(forms.Select):
    """Each campaign option carries its sides' names, so the page can name the
    sides of the campaign chosen (``roster_form.html``)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        campaign = getattr(value, "instance", None)
        if campaign is not None:
            option["attrs"].update({"data-attacker": campaign.attacker_name, "data-defender": campaign.defender_name})
        return option


SIDE_HELP = _("As the campaign names it; leave it empty for the side the game master gave your character there.")


class SideByName:
    """The side asked by its name in the campaign («РККА», «Вермахт»), not as
    attacker or defender; the campaign-less words until one is chosen."""

    def name_sides(self) -> None:
        raw = self.data.get(self.add_prefix("campaign")) if self.is_bound else self.initial.get("campaign")
        pk = getattr(raw, "pk", raw)
        campaign = Campaign.objects.filter(pk=pk).first() if ascii_int(str(pk or "")) is not None else None
        names = {s: campaign.side_name(s) for s in Side.values} if campaign else dict(Side.choices)
        self.fields["side"].choices = [("", "—"), *((s, names[s]) for s in Side.values)]
        self.fields["side"].widget.attrs.update({"data-attacker": Side.ATTACKER.label,
                                                 "data-defender": Side.DEFENDER.label})


class RosterForm(SideByName, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    character = forms.ModelChoiceField(label=_("Character"), queryset=Character.objects.none())
    campaign = forms.ModelChoiceField(label=_("Campaign"), queryset=Campaign.objects.all(), required=False,
                                      widget=CampaignSelect)
    side = forms.ChoiceField(label=_("Side"), choices=[("", "—"), *Side.choices], required=False,
                             help_text=SIDE_HELP)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.name_sides()
        qs = Character.objects.select_related("nationality")
        self.fields["character"].queryset = qs if is_game_master(user) else qs.filter(owner=user)
        own = list(qs.filter(owner=user).values_list("pk", flat=True)[:2]) if user is not None else []
        if len(own) == 1:  # a player with one character need not choose him
            self.fields["character"].initial = own[0]


class RosterEditForm(SideByName, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    campaign = forms.ModelChoiceField(label=_("Campaign"), queryset=Campaign.objects.all(), required=False,
                                      widget=CampaignSelect)
    side = forms.ChoiceField(label=_("Side"), choices=[("", "—"), *Side.choices], required=False,
                             help_text=SIDE_HELP)
    air_support_cards = forms.IntegerField(label=_("Air-support cards"), min_value=0, max_value=99, initial=0,
                                           help_text=_("V-FORM-2; the price is game data (G-8 placeholder: 8 PP)"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name_sides()


class UnitForm(forms.Form):
    kind = forms.ChoiceField(label=_("Unit type"), choices=UnitKind.choices)
    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    parent = forms.TypedChoiceField(label=_("Part of"), coerce=int, empty_value=None, required=False)
    group_kind = forms.ChoiceField(label=_("Group type"), choices=[("", "—"), *GroupKind.choices], required=False)
    upgrade = forms.ChoiceField(label=_("Upgrade"), required=False)
    fow_kind = forms.ChoiceField(label=_("FoW platoon type"), choices=[("", "—"), *FowPlatoonKind.choices],
                                 required=False)

    def __init__(self, *args, tree=None, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tree.ruleset == "fow":  # a FoW roster is platoons of teams
            self.fields["kind"].choices = [(UnitKind.FOW_PLATOON, UnitKind.FOW_PLATOON.label)]
            self.fields["fow_kind"].choices = FowPlatoonKind.choices
            for name in ("group_kind", "upgrade"):
                del self.fields[name]
        else:
            self.fields["kind"].choices = [c for c in UnitKind.choices if c[0] != UnitKind.FOW_PLATOON]
            del self.fields["fow_kind"]
        self.fields["parent"].choices = [("", "—")] + [(u.pk, u.name) for u in tree.units]
        if "upgrade" in self.fields:
            self.fields["upgrade"].choices = [("", "—")] + [(u.code, f"{_name(u)} ({u.cost})")
                                                          for u in game.upgrades]


class UnitEditForm(forms.Form):
    """Rename a unit and move it under another unit (or to the top)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    parent = forms.TypedChoiceField(label=_("Part of"), coerce=int, empty_value=None, required=False)

    def __init__(self, *args, places=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["parent"].choices = [("", _("— top of the roster —"))] + [(u.pk, u.name) for u in places]


class FighterForm(forms.Form):
    infantry_class = forms.ChoiceField(label=_("Class"))
    count = forms.IntegerField(label=_("Count"), min_value=1, max_value=1000, initial=1)
    place = forms.ChoiceField(label=_("Where"), required=False)
    fire_team = forms.TypedChoiceField(label=_("Fire team"), coerce=int, empty_value=None, required=False,
                                       choices=[("", "—"), (1, "1"), (2, "2")])

    def __init__(self, *args, tree=None, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        nationality = tree.roster.character.nationality

        def name(c) -> str:  # officers under the national rank name (G-23)
            return nationality.rank_name(c.rank, "ru" if _ru() else "en") if c.rank else _name(c)

        self.fields["infantry_class"].choices = [(c.code, f"{name(c)} ({c.cost})") for c in game.classes]
        self.fields["place"].choices = (
            [("", _("outside any unit"))] + [(f"u{u.pk}", u.name) for u in tree.units]
            + [(f"v{v.pk}", f"{_('crew')}: {v.display_name}") for v in tree.vehicles])


class FowTeamForm(forms.Form):
    """Teams of one FoW type into a FoW platoon."""

    team_type = forms.ChoiceField(label=_("Team type"))
    count = forms.IntegerField(label=_("Count"), min_value=1, max_value=100, initial=1)
    unit = forms.TypedChoiceField(label=_("Platoon"), coerce=int)

    def __init__(self, *args, tree=None, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team_type"].choices = [(t.code, f"{_name(t)} ({t.cost})") for t in game.fow_team_types]
        self.fields["unit"].choices = [(u.pk, u.name) for u in tree.units if u.kind == UnitKind.FOW_PLATOON]


class CountForm(forms.Form):
    count = forms.IntegerField(label=_("Count"), min_value=0, max_value=1000)
    fire_team = forms.TypedChoiceField(label=_("Fire team"), coerce=int, empty_value=None, required=False,
                                       choices=[("", "—"), (1, "1"), (2, "2")])


class VehicleForm(forms.Form):
    kind = forms.ChoiceField(label=_("Type"), choices=VehicleKind.choices)
    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    unit = forms.TypedChoiceField(label=_("Unit"), coerce=int, empty_value=None, required=False)
    gun_type = forms.ChoiceField(label=_("Gun type"), choices=GunType.choices, required=False)
    armour_class = forms.TypedChoiceField(label=_("Armour class"), coerce=int)
    gun_class = forms.TypedChoiceField(label=_("Gun class"), coerce=int, empty_value=None, required=False)
    side_skirts = forms.BooleanField(label=_("Side skirts"), required=False)
    options = forms.MultipleChoiceField(label=_("Specialisations"), required=False,
                                        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, tree=None, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [("", "—")] + [(u.pk, u.name) for u in tree.units]
        self.fields["armour_class"].choices = [(a.number, f"{a.number} ({a.cost})") for a in game.armour]
        self.fields["gun_class"].choices = [("", "—")] + [(g.number, f"{g.number} ({g.cost})") for g in game.guns]
        self.fields["options"].choices = [(o.code, f"{_name(o)} ({o.cost})") for o in game.options]


class ImportForm(forms.Form):
    character = forms.ModelChoiceField(label=_("Character"), queryset=Character.objects.none())
    file = forms.FileField(label=_("JSON export"))

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        qs = Character.objects.select_related("nationality")
        self.fields["character"].queryset = qs if is_game_master(user) else qs.filter(owner=user)
        own = list(qs.filter(owner=user).values_list("pk", flat=True)[:2]) if user is not None else []
        if len(own) == 1:  # a player with one character need not choose him
            self.fields["character"].initial = own[0]
