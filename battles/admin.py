"""Admin for the game master: battles, their participants and mustering,
their read-only log and state, a replay action."""
import json
import threading

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from campaign.models import Character
from config.appendonly import AppendOnlyAdmin
from config.errors import ApplicationError
from rosters.api_cards import pdf_response
from rosters.cards_pdf import render_pdf
from rosters.models import Roster

from . import engine, selectors
from .engine import rules_data
from .engine.terms import term
from .gamedata import OWNED_KEYS
from .models import Battle, BattleEvent, BattleParticipant, BattleProjection, RulesSetting
from .selectors import rules_data_overview
from .services import battle_dice_commit, battle_rules_reapply
from .setup import muster
from .setup.views import fow_muster_args, fow_muster_choices
from .table import report
from .tasks import replay_battle


class _EventWords:
    """An event as the game master reads it: its type's title and the log's
    sentence (names from the musters, sides by their campaign names), never
    the stored type code or JSON. The battle's names and state are read once
    per battle and page (``begin`` starts a page: each admin's
    ``get_queryset``; thread-local, as a server thread serves one request at a time)."""

    _local = threading.local()

    @classmethod
    def begin(cls) -> None:
        cls._local.cache = {}

    @classmethod
    def _context(cls, battle: Battle) -> tuple[dict, dict, dict]:
        cache = getattr(cls._local, "cache", None)
        if cache is None:
            cache = cls._local.cache = {}
        if battle.pk not in cache:
            state = selectors.battle_state_get(battle_id=battle.pk).state
            cache[battle.pk] = (selectors.battle_names(battle_id=battle.pk), state,
                                {"attacker": battle.campaign.attacker_name, "defender": battle.campaign.defender_name})
        return cache[battle.pk]

    @staticmethod
    def title(obj: BattleEvent) -> str:
        try:
            entry = engine.ruleset_of(obj.battle.campaign.ruleset).registry[obj.type]
        except KeyError:
            return str(_("unknown event type"))
        return entry.title_en if (get_language() or "ru").startswith("en") else entry.title_ru

    @classmethod
    def sentence(cls, obj: BattleEvent) -> str:
        names, state, sides = cls._context(obj.battle)
        return report.sentence(obj.type, obj.data, "en" if (get_language() or "ru").startswith("en") else "ru",
                               names=names, state=state, sides=sides)


def _plain(value) -> str:
    """A rules value in words: numbers as numbers, a table by its size (its rows are game data, edited in
    their own tables), nothing as «—»."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):  # a table (the infantry table's columns): its size, not its codes
        return ngettext("a table of %(n)s row", "a table of %(n)s rows", len(value)) % {"n": len(value)}
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class EventWordsColumns:
    """The two columns an event is read by in the admin: its title and its sentence."""

    @admin.display(description=_("event"))
    def event_title(self, obj):
        return _EventWords.title(obj)

    @admin.display(description=_("entry"))
    def entry(self, obj):
        return _EventWords.sentence(obj)


class ReadOnlyEventInline(EventWordsColumns, admin.TabularInline):
    model = BattleEvent
    fields = ("seq", "event_title", "entry", "recorded_by", "recorded_at")
    readonly_fields = fields
    ordering = ("-seq",)
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        _EventWords.begin()  # the sentences read the battle's names once per page
        return super().get_queryset(request).select_related("recorded_by", "battle__campaign")


def _error_text(exc: ApplicationError) -> str:
    return exc.message_ru if (get_language() or "ru").startswith("ru") else exc.message_en


class ParticipantInline(admin.TabularInline):
    """Who fights, with which roster. Rows are added and removed through the
    mustering services (side from the campaign membership, roster checks);
    after the muster they are read-only."""

    model = BattleParticipant
    fields = ("character", "side_label", "roster", "mustered_total", "mustered_version", "mustered_at")
    readonly_fields = ("side_label", "mustered_total", "mustered_version", "mustered_at")
    extra = 1

    @admin.display(description=_("side"))
    def side_label(self, obj):
        if obj is None or not obj.pk:
            return _("from the campaign membership")
        return f"{obj.battle.campaign.side_name(obj.side)} ({obj.get_side_display()})"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("character", "roster", "battle__campaign")

    def _battle(self, request):
        object_id = getattr(request.resolver_match, "kwargs", {}).get("object_id")
        return Battle.objects.filter(pk=object_id).first() if object_id else None

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        battle = self._battle(request)
        if battle is not None and db_field.name == "character":
            kwargs["queryset"] = Character.objects.filter(memberships__campaign_id=battle.campaign_id,
                                                          memberships__status="active").order_by("name")
        if battle is not None and db_field.name == "roster":
            kwargs["queryset"] = Roster.objects.filter(campaign_id=battle.campaign_id).select_related("character")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_change_permission(self, request, obj=None):
        return obj is None or not muster.battle_is_mustered(battle=obj)

    def has_add_permission(self, request, obj=None):
        return obj is not None and not muster.battle_is_mustered(battle=obj)

    def has_delete_permission(self, request, obj=None):
        return obj is not None and not muster.battle_is_mustered(battle=obj)


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "number", "head_seq", "projection_seq")
    list_filter = ("campaign",)
    search_fields = ("name",)
    readonly_fields = ("head_seq", "state_summary", "rules_summary")
    exclude = ("rules",)
    filter_horizontal = ("objectives",)
    inlines = [ParticipantInline, ReadOnlyEventInline]
    actions = ["muster_battles", "replay", "reapply_rules", "print_attacker_cards", "print_defender_cards"]
    change_form_template = "admin/battles/battle/change_form.html"

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else [ReadOnlyEventInline]

    def save_model(self, request, obj, form, change):
        if not change:  # a battle added here has its dice committed as battle_create's do
            battle_dice_commit(battle=obj)
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):
        """Participants go through the services (the same checks as the API
        and the setup page); a refusal is shown and the row is not saved."""
        if formset.model is not BattleParticipant:
            return super().save_formset(request, form, formset, change)
        battle = form.instance
        # The admin's change message reads these; the services did the saving.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for f in formset.forms:
            if not f.has_changed() and not (f.instance.pk and f in formset.deleted_forms):
                continue
            try:
                with transaction.atomic():
                    if f.instance.pk:
                        old = BattleParticipant.objects.get(pk=f.instance.pk)
                        muster.battle_participant_remove(user=request.user, participant=old)
                    if f not in formset.deleted_forms and f.cleaned_data.get("character"):
                        roster = f.cleaned_data.get("roster")
                        if roster is None:
                            self.message_user(request, _("Choose the participant's roster."), messages.ERROR)
                            raise _Skip
                        muster.battle_participant_add(user=request.user, battle=battle,
                                                      character=f.cleaned_data["character"], roster=roster)
            except ApplicationError as exc:
                self.message_user(request, _error_text(exc), messages.ERROR)
            except _Skip:
                pass

    def get_urls(self):
        return [path("<int:battle_id>/muster/", self.admin_site.admin_view(self.muster_view),
                     name="battles_battle_muster"), *super().get_urls()]

    def muster_view(self, request, battle_id: int):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        battle = get_object_or_404(Battle.objects.select_related("campaign"), pk=battle_id)
        self._muster(request, battle, **fow_muster_args(request.POST, battle.campaign))
        return HttpResponseRedirect(reverse("admin:battles_battle_change", args=[battle_id]))

    def _muster(self, request, battle: Battle, **choices: str) -> None:
        try:
            muster.battle_muster(user=request.user, battle=battle, **choices)
        except ApplicationError as exc:
            self.message_user(request, f"{battle.name}: {_error_text(exc)}", messages.ERROR)
        else:
            self.message_user(request, _("%(name)s: the forces are mustered and the battle has started.")
                              % {"name": battle.name}, messages.SUCCESS)

    def _print_cards(self, request, queryset, side: str):
        """One PDF (A4 sheets with crop marks) of every participant's roster on
        one side, to print before the battle (issue 12, V-FORM)."""
        battles = list(queryset[:2])
        if len(battles) != 1:
            self.message_user(request, _("Choose exactly one battle to print its cards."), messages.ERROR)
            return None
        battle = battles[0]
        cards = selectors.battle_side_cards_load(battle_id=battle.pk, side=side, user=request.user)
        if not cards:
            self.message_user(request, _("%(name)s: this side has no participants yet.") % {"name": battle.name},
                              messages.WARNING)
            return None
        side_name = (battle.campaign.side_name(side) if battle.campaign_id else "") or side
        return pdf_response(render_pdf(cards, layout="a4", title=f"{battle.name} — {side_name}"),
                            f"battle-{battle.pk}-{side}-cards.pdf")

    @admin.action(description=_("Print the cards of a side: the attackers (PDF)"))
    def print_attacker_cards(self, request, queryset):
        return self._print_cards(request, queryset, BattleParticipant.Side.ATTACKER)

    @admin.action(description=_("Print the cards of a side: the defenders (PDF)"))
    def print_defender_cards(self, request, queryset):
        return self._print_cards(request, queryset, BattleParticipant.Side.DEFENDER)

    @admin.action(description=_("Muster the participants' rosters and start the battle"))
    def muster_battles(self, request, queryset):
        """A FoW battle among the chosen that has not begun asks first (an
        intermediate page) for the table's units and who moves first; v11.2
        battles, and battles already under way, go straight to the muster."""
        battles = list(queryset.select_related("campaign").order_by("id"))
        # A battle already under way is not asked about: the muster refuses it, with the reason, below.
        fow = [b for b in battles if b.campaign.ruleset == "fow" and not b.head_seq]
        if fow and "apply" not in request.POST:
            return TemplateResponse(request, "admin/battles/battle/muster_fow.html", {
                **self.admin_site.each_context(request), "opts": self.model._meta, "battles": battles,
                "fow_battles": [(b, fow_muster_choices(b.campaign)) for b in fow],
                "title": _("Muster the participants' rosters and start the battle"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            })
        for battle in battles:
            choices = {}
            if battle.campaign.ruleset == "fow":
                choices = {"units": request.POST.get(f"units-{battle.pk}", ""),
                           "first_mover": request.POST.get(f"first_mover-{battle.pk}", "")}
            self._muster(request, battle, **choices)
        return None

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("campaign", "projection")

    @admin.display(description=_("state"))
    def state_summary(self, obj):
        proj = getattr(obj, "projection", None)
        if proj is None:
            return "—"
        st, lang = proj.state or {}, get_language()
        text = _("event %(seq)s of %(head)s · %(status)s · turn %(turn)s") % {
            "seq": proj.seq, "head": obj.head_seq, "status": term("status", st.get("status", "planned"), lang),
            "turn": st.get("turn", 0)}
        if st.get("winner"):
            winner = _("draw") if st["winner"] == "draw" else obj.campaign.side_name(st["winner"])
            text += " · " + _("winner: %(side)s") % {"side": winner}
        return text

    @admin.display(description=_("rules data"))
    def rules_summary(self, obj):
        """The battle's rules snapshot as the game master reads it: taken or
        not, and the values that differ from the engine's defaults, each
        under its key as on the rules-data page (linked)."""
        if obj is None or obj.rules is None:
            return _("not taken yet: the battle's first event takes the rules data in force then")
        defaults = engine.ruleset_of(obj.campaign.ruleset).default_rules
        changed = [(k, v) for k, v in sorted(obj.rules.items()) if defaults.get(k) != v]
        link = reverse("admin:battles_rulessetting_defaults")
        if not changed:
            return format_html('{} (<a href="{}">{}</a>)', _("the engine's defaults"), link, _("rules data"))
        items = format_html_join("", "<li><code>{}</code> — {}</li>",
                                 ((k, _plain(v)) for k, v in changed))
        return format_html('{}<ul class="rules-summary">{}</ul><a href="{}">{}</a>',
                           ngettext("%(n)s value differs from the defaults:",
                                    "%(n)s values differ from the defaults:", len(changed)) % {"n": len(changed)},
                           items, link, _("all rules data"))

    @admin.display(description=_("projection seq"))
    def projection_seq(self, obj):
        proj = getattr(obj, "projection", None)
        return proj.seq if proj else None

    @admin.action(description=_("Replay selected battles from the log"))
    def replay(self, request, queryset):
        for battle_id in queryset.values_list("id", flat=True):
            replay_battle.delay(battle_id, rebuild=True)
        self.message_user(request, _("Replay queued."), messages.SUCCESS)

    @admin.action(description=_("Replay selected battles under the current rules data"))
    def reapply_rules(self, request, queryset):
        for battle_id in queryset.values_list("id", flat=True):
            battle_rules_reapply(battle_id=battle_id)
        self.message_user(request, _("Rules data re-applied and projections rebuilt."), messages.SUCCESS)

    def has_delete_permission(self, request, obj=None):
        return obj is None or not obj.events.exists()


class _Skip(Exception):
    pass


@admin.register(BattleEvent)
class BattleEventAdmin(EventWordsColumns, AppendOnlyAdmin):
    """The battle log, read as the log's sentences. Corrections are appended
    as events. The stored payload is shown only on an event's own page,
    folded away under "Technical record" (for checking a correction)."""

    list_display = ("battle", "seq", "event_title", "entry", "recorded_by", "recorded_at")
    list_filter = ("battle__campaign",)
    search_fields = ("type", "key")
    list_select_related = ("battle__campaign", "recorded_by")
    fieldsets = (
        (None, {"fields": ("battle", "seq", "event_title", "entry", "recorded_by", "recorded_at")}),
        (_("Technical record"), {"classes": ("collapse",),
                                 "fields": ("position", "type", "data", "schema_version", "key")}),
    )

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "event_title", "entry"]

    def get_queryset(self, request):
        _EventWords.begin()
        return super().get_queryset(request)


@admin.register(BattleProjection)
class BattleProjectionAdmin(admin.ModelAdmin):
    # The model's battle and engine_version have no translated verbose_name (naming them there is a
    # migration): their columns and labels are named here.
    list_display = ("projection_battle", "seq", "projection_engine_version", "updated_at")
    fields = readonly_fields = ("projection_battle", "seq", "state", "projection_engine_version", "updated_at")

    @admin.display(description=_("battle"), ordering="battle")
    def projection_battle(self, obj):
        return obj.battle

    @admin.display(description=_("rules engine version"), ordering="engine_version")
    def projection_engine_version(self, obj):
        return obj.engine_version

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RulesSettingForm(forms.ModelForm):
    key = forms.ChoiceField(choices=[(k, k) for k in sorted(engine.DEFAULT_RULES)])

    class Meta:
        model = RulesSetting
        fields = ["key", "value", "note"]


@admin.register(RulesSetting)
class RulesSettingAdmin(admin.ModelAdmin):
    """The game master's rules data. Rows override the engine defaults; keys
    marked as placeholders come from gaps in the seed rules (G-n). Keys the
    game-data tables own (``battles.gamedata.OWNED_KEYS``) are edited there:
    the list names them, and an old row for one is shown as superseded."""

    form = RulesSettingForm
    list_display = ("key", "value", "default", "placeholder", "superseded", "updated_at")
    search_fields = ("key", "note")
    readonly_fields = ("default", "placeholder", "reading", "superseded")

    def changelist_view(self, request, extra_context=None):
        owned = [{"key": key, "what": what, "where": where, "url": reverse(url)}
                 for key, (what, where, url) in OWNED_KEYS.items()]
        return super().changelist_view(request, {**(extra_context or {}), "game_data_keys": owned,
                                                 "defaults_url": reverse("admin:battles_rulessetting_defaults")})

    def get_urls(self):
        view = self.admin_site.admin_view(self.defaults_view)
        return [path("defaults/", view, name="battles_rulessetting_defaults"), *super().get_urls()]

    def defaults_view(self, request):
        """Every rules-data default in use, with its gap ID and placeholder
        mark, and a link to set it (a rules setting, or the game-data table
        that owns the key)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        add = reverse("admin:battles_rulessetting_add")
        rows = []
        for row in rules_data_overview():
            if row.source == "game_data":
                _what, where, url = OWNED_KEYS[row.key]
                link, label = reverse(url), where
            elif row.setting_id is not None:
                link, label = reverse("admin:battles_rulessetting_change", args=[row.setting_id]), _("change")
            else:
                link, label = f"{add}?key={row.key}", _("set")
            rows.append({"row": row, "link": link, "label": label,
                         # shown as the JSON the value field takes (true, "…"), not Python's repr
                         "default": json.dumps(row.default, ensure_ascii=False),
                         "value": json.dumps(row.value, ensure_ascii=False)})
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "rows": rows,
                   "title": _("Rules data: every default in use")}
        return TemplateResponse(request, "admin/battles/rulessetting/defaults.html", context)

    def get_changeform_initial_data(self, request):
        """``?key=`` from the defaults list: the key, and its default as the value to edit."""
        initial = super().get_changeform_initial_data(request)
        key = initial.get("key")
        if key in engine.DEFAULT_RULES:
            initial["value"] = engine.DEFAULT_RULES[key]
        return initial

    @admin.display(description=_("default"))
    def default(self, obj):
        return engine.DEFAULT_RULES.get(obj.key)

    @admin.display(description=_("placeholder"))
    def placeholder(self, obj):
        gap = rules_data.PLACEHOLDERS.get(obj.key)
        if not gap:
            return "—"
        if obj is not None and obj.pk is not None:  # the game master has set it: no longer a placeholder
            return _("set by the game master (was placeholder %s)") % gap
        return _("placeholder (%s)") % gap

    @admin.display(description=_("catalog reading"))
    def reading(self, obj):
        return getattr(rules_data, "READINGS", {}).get(obj.key, "—")

    @admin.display(description=_("superseded"))
    def superseded(self, obj):
        if obj is None or obj.key not in OWNED_KEYS:
            return "—"
        _what, where, url = OWNED_KEYS[obj.key]
        return format_html('<strong style="color:#b45309">⚠ {}</strong> <a href="{}">{}</a>',
                           _("Superseded: this row is ignored. Edit the value in"), reverse(url), where)
