"""Officer moves from ``clubs`` to ``office`` (state only; its table is renamed in 0002)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("clubs", "0001_initial"),
        ("federation", "0003_player_name_search"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
            migrations.CreateModel(
                name='Officer',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('role', models.CharField(choices=[('club_director', 'club director'), ('region_officer', 'district or circle officer'), ('secretariat', 'secretariat'), ('commission', 'commission member')], max_length=20, verbose_name='role')),
                    ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='officers', to='clubs.club')),
                    ('federation', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='officers', to='federation.federation')),
                    ('region', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='officers', to='federation.region')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='offices', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'clubs_officer',
                    'verbose_name': 'officer',
                    'verbose_name_plural': 'officers',
                    'ordering': ['federation', 'role'],
                },
            ),
            migrations.AddConstraint(
                model_name='officer',
                constraint=models.CheckConstraint(condition=models.Q(models.Q(('club__isnull', False), ('region__isnull', True), ('role', 'club_director')), models.Q(('club__isnull', True), ('region__isnull', False), ('role', 'region_officer')), models.Q(('club__isnull', True), ('region__isnull', True), ('role__in', ['secretariat', 'commission'])), _connector='OR'), name='officer_scope_matches_role', violation_error_message='A club director needs a club, a region officer a region; the secretariat and the commission act for the whole federation.'),
            ),
            migrations.AddConstraint(
                model_name='officer',
                constraint=models.UniqueConstraint(condition=models.Q(('role', 'club_director')), fields=('user', 'club'), name='officer_director_once_per_club'),
            ),
            migrations.AddConstraint(
                model_name='officer',
                constraint=models.UniqueConstraint(condition=models.Q(('role', 'region_officer')), fields=('user', 'region'), name='officer_once_per_region'),
            ),
            migrations.AddConstraint(
                model_name='officer',
                constraint=models.UniqueConstraint(condition=models.Q(('role__in', ['secretariat', 'commission'])), fields=('user', 'role', 'federation'), name='officer_staff_role_once'),
            ),
            ],
        ),
    ]
