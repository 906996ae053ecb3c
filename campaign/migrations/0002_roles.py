"""The two roles as groups: the game master (мастер) and players."""
from django.db import migrations

GM_APPS = ("campaign", "battles", "rosters")
PLAYER_PERMS = [("battles", "add_battleevent"), ("battles", "view_battleevent"), ("battles", "view_battle"),
                ("campaign", "view_campaign")]


def forwards(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    gm, _ = Group.objects.get_or_create(name="game_master")
    gm.permissions.add(*Permission.objects.filter(content_type__app_label__in=GM_APPS))
    gm.permissions.add(*Permission.objects.filter(content_type__app_label="auth", codename__in=[
        "view_user", "change_user", "view_group"]))
    player, _ = Group.objects.get_or_create(name="player")
    for app_label, codename in PLAYER_PERMS:
        player.permissions.add(*Permission.objects.filter(content_type__app_label=app_label, codename=codename))


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0001_initial"),
        ("battles", "0002_append_only_log"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
