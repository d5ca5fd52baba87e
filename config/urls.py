"""The site's URLs. Under /c/<slug>/ three apps serve one club:

- club: the club page's settings, members, roster (players/), invitations;
- scoring: evenings/, pulkas/ (entry, the live sheet, import and export);
- competition: leagues/, tournaments/, players/<id>/ (profiles), players/merge/, background/,
  backup/ and files/ (competition/urls.py mounts one urls.py per room); /ratings/ too.
"""

from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path

from club import account_views as club_account_views
from club import views as club_views
from config import offline
from config import views as site_views

urlpatterns = [
    path("", club_views.home, name="home"),
    path("healthz", site_views.healthz, name="healthz"),
    path("favicon.ico", site_views.favicon, name="favicon"),
    # Offline entry's app shell (config/offline.py).
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline_page, name="offline"),
    path("jsi18n/<str:language>/", offline.javascript_catalog, name="javascript-catalog"),
    # allauth's pages under their old names too: every "log in" link and LOGIN_URL say these.
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, which also stores the choice on a logged-in account.
    path("i18n/setlang/", club_account_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("", include("club.urls")),
    path("", include("scoring.urls")),
    path("", include("competition.urls")),
    path("f/", include("federation.urls")),
]

# allauth answers its rate limits with ROOT_URLCONF.handler429.
handler429 = site_views.too_many_requests
# The error pages in the site's layout and the visitor's language (config/views.py).
handler400 = site_views.bad_request
handler403 = site_views.permission_denied
handler404 = site_views.page_not_found
handler500 = site_views.server_error
