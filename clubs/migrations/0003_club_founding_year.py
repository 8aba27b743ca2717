"""A club records its founding year (DBf § 403B4: GP in the club's jubilee years, D-Q25), from 1886 (the first
printed rules of bridge) to the current year; empty for the existing clubs until the secretariat records it."""

import clubs.models
import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_officer_moved_to_office'),
        ('federation', '0004_outbox'),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='founding_year',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The year the club was founded: its jubilee years count from it (DBf § 403B4).', null=True, validators=[django.core.validators.MinValueValidator(1886), clubs.models.validate_founding_year_not_in_future], verbose_name='founding year'),
        ),
        migrations.AddConstraint(
            model_name='club',
            constraint=models.CheckConstraint(condition=models.Q(('founding_year__isnull', True), ('founding_year__gte', 1886), _connector='OR'), name='club_founding_year_not_before_bridge'),
        ),
    ]
