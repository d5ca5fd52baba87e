

def test_staff_still_log_in_to_the_django_admin(client):
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)

    response = client.post(
        "/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD, "next": "/admin/"}
    )

    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert "Site administration" in client.get("/admin/").content.decode()
    assert client.get("/admin/account/emailaddress/").status_code == 200
