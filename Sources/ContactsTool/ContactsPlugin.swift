import VCard
