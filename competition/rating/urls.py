from django.urls import path

from competition.rating import views

urlpatterns = [
    path("ratings/", views.ratings_help, name="ratings-help"),
]
