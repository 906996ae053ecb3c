"""Admin for the game master: battles, their read-only log and state, a replay action."""
from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from . import engine
from .engine import rules_data
from .models import Battle, BattleEvent, BattleProjection, RulesSetting
from .services import battle_rules_reapply
from .tasks import replay_battle


class ReadOnlyEventInline(admin.TabularInline):
    model = BattleEvent
    fields = ("seq", "type", "data", "recorded_by", "recorded_at")
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
        return super().get_queryset(request).select_related("recorded_by")


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "number", "head_seq", "projection_seq")
    list_filter = ("campaign",)
    search_fields = ("name",)
    readonly_fields = ("head_seq", "state_summary", "rules")
    filter_horizontal = ("objectives",)
    inlines = [ReadOnlyEventInline]
    actions = ["replay", "reapply_rules"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("campaign", "projection")

    @admin.display(description=_("state"))
    def state_summary(self, obj):
        proj = getattr(obj, "projection", None)
        if proj is None:
            return "—"
        st = proj.state or {}
        return (f"seq {proj.seq}/{obj.head_seq} · {st.get('status', '?')} · turn {st.get('turn', 0)}"
                f"{' · winner ' + st['winner'] if st.get('winner') else ''}")

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


class AppendOnlyAdmin(admin.ModelAdmin):
    """An append-only log in the admin: every field shown, nothing added,
    changed or deleted here (events enter only through the services)."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(BattleEvent)
class BattleEventAdmin(AppendOnlyAdmin):
    """The battle log. Corrections are appended as events."""

    list_display = ("battle", "seq", "position", "type", "recorded_by", "recorded_at")
    list_filter = ("type", "battle__campaign")
    search_fields = ("type", "key")
    list_select_related = ("battle", "recorded_by")


@admin.register(BattleProjection)
class BattleProjectionAdmin(admin.ModelAdmin):
    list_display = ("battle", "seq", "engine_version", "updated_at")
    readonly_fields = ("battle", "seq", "state", "engine_version", "updated_at")

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
        from .gamedata import OWNED_KEYS

        owned = [{"key": key, "what": what, "where": where, "url": reverse(url)}
                 for key, (what, where, url) in OWNED_KEYS.items()]
        return super().changelist_view(request, {**(extra_context or {}), "game_data_keys": owned})

    @admin.display(description=_("default"))
    def default(self, obj):
        return engine.DEFAULT_RULES.get(obj.key)

    @admin.display(description=_("placeholder"))
    def placeholder(self, obj):
        gap = rules_data.PLACEHOLDERS.get(obj.key)
        return _("placeholder (%s)") % gap if gap else "—"

    @admin.display(description=_("catalog reading"))
    def reading(self, obj):
        return getattr(rules_data, "READINGS", {}).get(obj.key, "—")

    @admin.display(description=_("superseded"))
    def superseded(self, obj):
        from .gamedata import OWNED_KEYS

        if obj is None or obj.key not in OWNED_KEYS:
            return "—"
        _what, where, url = OWNED_KEYS[obj.key]
        return format_html('<strong style="color:#b45309">⚠ {}</strong> <a href="{}">{}</a>',
                           _("Superseded: this row is ignored. Edit the value in"), reverse(url), where)
