"""The public calculator page and POST /api/calculator (engine-cli.md: same request, same answer)."""

import json

from django.urls import reverse


def test_the_calculator_page_shows_the_d_p8_district_scale(client, db):
    # § 405B7f with D-Q3: 30 pairs, 104 boards, district → field 36, 12 places, 36.0 … 0.5 SP.
    params = {
        "calc": "dbf",
        "dbf-form": "pairs",
        "dbf-category": "SP",
        "dbf-organizer": "district",
        "dbf-participants": "30",
        "dbf-boards": "104",
        "dbf-rows": "1",
        "dbf-row": "1",
        "dbf-split": "random",
    }
    body = client.get(reverse("public:calculator"), params).content.decode()
    assert "<dd>36</dd>" in body
    assert ">36.0<" in body and ">0.5<" in body


def test_an_engine_refusal_comes_back_on_the_named_field(client, db):
    params = {
        "calc": "dbf",
        "dbf-form": "pairs",
        "dbf-category": "GP",
        "dbf-organizer": "district",
        "dbf-participants": "30",
        "dbf-boards": "60",
        "dbf-rows": "1",
        "dbf-row": "1",
        "dbf-split": "random",
    }
    body = client.get(reverse("public:calculator"), params).content.decode()
    assert "§ 403" in body  # districts may not award GP
    assert "Points per player by place" not in body


def test_the_hbs_category_calculator_names_the_category_h_2(client, db):
    params = {"calc": "category", "category-black": "2000", "category-red": "100", "category-master": "0"}
    body = client.get(reverse("public:calculator"), params).content.decode()
    assert "tref ekspert" in body


def test_the_api_answers_the_d_p1_vector(client, db):
    request = {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "BP", "participants": 12, "boards": 24}
    response = client.post(reverse("api:calculator"), json.dumps(request), content_type="application/json")
    assert response.status_code == 200
    assert response.json()["awards"] == ["24", "16", "11", "8"]


def test_the_api_names_the_field_of_a_bad_request(client, db):
    request = {"scheme": "dbf", "kind": "scale", "form": "pairs", "category": "XP", "participants": 12, "boards": 24}
    response = client.post(reverse("api:calculator"), json.dumps(request), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "category"


def test_the_api_refuses_broken_json_and_oversized_requests(client, db):
    url = reverse("api:calculator")
    assert client.post(url, "{not json", content_type="application/json").status_code == 400
    big = json.dumps({"scheme": "dbf", "x-pad": "x" * 70_000})
    assert client.post(url, big, content_type="application/json").status_code == 413
    assert client.get(url).status_code == 405


def test_danish_and_croatian_readers_write_and_read_decimals_with_a_comma(client, db):
    """12,5 SP and 0,50 GP typed in Danish are 12.5 SP and 0.50 GP (§ 404: 1.25 + 0.50 = 1.75 MP); the
    answer is written with commas too. A point is accepted in every language."""
    params = {"calc": "title", "title-bp": "0", "title-sp": "12,5", "title-gp": "0,50"}
    client.cookies["django_language"] = "da"
    body = client.get(reverse("public:calculator"), params).content.decode()
    assert "<dd>1,75 MP</dd>" in body
    client.cookies["django_language"] = "en"
    params.update({"title-sp": "12.5", "title-gp": "0.50"})
    assert "<dd>1.75 MP</dd>" in client.get(reverse("public:calculator"), params).content.decode()
    client.cookies["django_language"] = "hr"
    params = {"calc": "hbs", "hbs-form": "pairs", "hbs-participants": "20", "hbs-boards": "24", "hbs-strength": "1,5"}
    body = client.get(reverse("public:calculator"), params).content.decode()
    assert "errorlist" not in body and 'value="1,5"' in body


def test_each_rule_books_calculator_shows_its_answer_by_its_plugins_template(client, db):
    """The title tab (DBf § 404A, D-Q11: 5 MP of BP alone make 1★ Klubmester) names the stars and what each
    kind alone reaches (§ 404B); the category tab (HBS H-2: 250 black points are tref, karo needs 500) the
    points still missing of every kind."""
    title = {"calc": "title", "title-bp": "500", "title-sp": "0", "title-gp": "0"}
    body = " ".join(client.get(reverse("public:calculator"), title).content.decode().split())
    assert "<dd>Klubmester ★</dd>" in body
    assert "<li>1500 BP reach Klubmester ★★</li>" in body
    assert "<li>10.00 GP reach Distriktsmester</li>" in body
    category = {"calc": "category", "category-black": "250", "category-red": "0", "category-master": "0"}
    body = " ".join(client.get(reverse("public:calculator"), category).content.decode().split())
    assert "<dt>Next category</dt><dd>karo</dd>" in body
    assert "<dd>black 250 · red 0 · master 0</dd>" in body


def test_the_calculator_offers_every_registered_rule_books_tabs_the_first_by_default(client, db):
    body = client.get(reverse("public:calculator"), {"calc": "no-such-tab"}).content.decode()
    tabs = [part.split('"', 1)[0] for part in body.split('href="?calc=')[1:]]
    assert tabs == ["dbf", "title", "hbs", "category"]
    assert 'name="calc" value="dbf"' in body
