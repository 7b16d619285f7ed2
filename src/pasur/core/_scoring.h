/* A round's breakdown (pasur/core/scoring.py's breakdown, the readable reference): each side's
 * clubs and Haft Khaj, the 2 of clubs, the 10 of diamonds, Aces, Jacks and Surs, tit for tat or not.
 * Used by the vector environment's reward (_vector.h) and the browser's match (_match.h). */
#ifndef PASUR_SCORING_H
#define PASUR_SCORING_H

#include "_engine.h"
#include "_solver.h"

/* One side's lines of scoring.SideScore, in its order. */
typedef struct {
    int clubs, haft_khaj, two_of_clubs, ten_of_diamonds, aces, jacks, surs, sur_points, cards;
} side_score_t;

/* SideScore.total: the round points. */
static inline int score_total(const side_score_t *s) {
    return s->haft_khaj + s->two_of_clubs + s->ten_of_diamonds + s->aces + s->jacks + s->sur_points;
}

/* Each of `sides` sides' breakdown from its pile and Surs: Haft Khaj for 7 clubs or, with
 * `most_clubs`, for strictly the most; only the difference in Surs scoring with `sur_cancel`. */
static void round_breakdown(const round_t *r, int sides, int most_clubs, int sur_cancel, side_score_t *out) {
    int most = 0, most_count = 0, fewest = r->surs[0];
    for (int side = 0; side < sides; side++) {
        int clubs = club_count(r->captured[side]);
        if (r->surs[side] < fewest) fewest = r->surs[side];
        if (clubs > most) {
            most = clubs;
            most_count = 1;
        } else if (clubs == most) {
            most_count++;
        }
    }
    for (int side = 0; side < sides; side++) {
        mask_t pile = r->captured[side];
        side_score_t *s = out + side;
        s->clubs = club_count(pile);
        int haft = most_clubs ? s->clubs == most && most_count == 1 : s->clubs >= HAFT_KHAJ_CLUBS;
        s->haft_khaj = HAFT_KHAJ_POINTS * haft;
        s->two_of_clubs = 2 * (int)(pile >> TWO_OF_CLUBS & 1);
        s->ten_of_diamonds = 3 * (int)(pile >> TEN_OF_DIAMONDS & 1);
        s->aces = bits_count(pile & ACES);
        s->jacks = bits_count(pile & JACKS);
        s->surs = r->surs[side];
        s->sur_points = SUR_POINTS * (r->surs[side] - (sur_cancel ? fewest : 0));
        s->cards = bits_count(pile);
    }
}

#endif
