from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from club import views as club_views
from config import views as site_views

urlpatterns = [
    path("", club_views.home, name="home"),
    path("healthz", site_views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("club.urls")),
    path("", include("scoring.urls")),
    path("", include("competition.urls")),
]
