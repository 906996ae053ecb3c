"""Create or tighten the application's PostgreSQL role (see battles/db_roles.py).

Run by the tables' owner (the role `migrate` connects as) after every
`migrate`, or by a superuser; creating the role or setting its password needs
CREATEROLE. Everything runs in one transaction and is checked before commit:
a role left able to switch off, drop or bypass the log triggers is refused.
"""
import os

import psycopg
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, transaction

from battles.db_roles import RoleSetupError, app_role_plan, app_role_problems


class Command(BaseCommand):
    help = ("Create the application's database role and grant it exactly what the app needs (SELECT, INSERT on the "
            "append-only logs). Run as the owner after each migrate. / Создать роль приложения в PostgreSQL и выдать "
            "ей только нужные права (журналы: только чтение и добавление). Запускать от владельца после migrate.")

    def add_arguments(self, parser):
        parser.add_argument("--app-role", required=True, help="the role the application connects as, e.g. shtab_app")
        parser.add_argument("--password-env", metavar="VAR",
                            help="set the role's password from this environment variable (never on the command line)")
        parser.add_argument("--owner", help="the tables' owner (default: the owner of the log tables)")
        parser.add_argument("--database", default="default", help="database alias (default: default)")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--check", action="store_true", help="change nothing; fail if the role breaks the policy")
        mode.add_argument("--print", action="store_true", dest="print_sql",
                          help="print the SQL that would run, and run nothing")

    def handle(self, *args, **options):
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            raise CommandError(f"db_roles is for PostgreSQL; this database is {connection.vendor} (no roles to set up).")
        role, owner = options["app_role"], options["owner"]
        password = None
        if options["password_env"]:
            password = os.environ.get(options["password_env"])
            if not password:
                raise CommandError(f"--password-env: the environment variable {options['password_env']} is empty or unset.")
        try:
            with transaction.atomic(using=connection.alias), connection.cursor() as wrapper:
                cur = wrapper.cursor  # psycopg's own cursor: it runs and renders psycopg.sql statements
                if options["check"]:
                    self._report(app_role_problems(cur, role=role, owner=owner), role)
                    return
                plan = app_role_plan(cur, role=role, password=None if options["print_sql"] else password, owner=owner)
                if options["print_sql"]:
                    for statement in plan:
                        self.stdout.write(statement.as_string(cur) + ";")
                    if password:
                        self.stdout.write(f"-- and the password from ${options['password_env']}: ALTER ROLE ... PASSWORD")
                    return
                for statement in plan:
                    cur.execute(statement)
                self._report(app_role_problems(cur, role=role, owner=owner), role)
        except RoleSetupError as exc:
            raise CommandError(str(exc)) from exc
        except psycopg.errors.InsufficientPrivilege as exc:
            raise CommandError(
                f"{exc}\nCreating the role or changing its attributes or password needs CREATEROLE: run this once as a "
                "superuser (the owner needs no CREATEROLE to re-run it after each migrate); the grants need the tables' "
                "owner (or a superuser).") from exc
        self.stdout.write(self.style.SUCCESS(
            f"role {role}: SELECT, INSERT on the append-only logs; DML on the other tables ({len(plan)} statements)"))

    def _report(self, problems: list[str], role: str) -> None:
        if problems:  # inside the transaction: raising rolls the changes back
            raise CommandError(f"role {role} breaks the policy:\n  " + "\n  ".join(problems))
        self.stdout.write(f"role {role}: checked, no problems")
