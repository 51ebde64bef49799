/* tune_paired: paired estimates of a difference between two configurations
 * played on the same seeds (foh tune, docs/tune.md "Paired predictions").
 *
 * Every figure foh tune judges is written as the mean over games of a
 * per-game value z_g (exactly for a mean or a sum of rates over every game,
 * to first order for a ratio such as a card's owners' win rate: the delta
 * method, see tune_ratio_values). Two configurations A and B played on the
 * same game seeds give the per-game differences d_g = zB_g - zA_g; the
 * difference of the figures is their mean and its variance is that of the
 * d_g over the number of games: the luck the two share (the deal, the bots'
 * draws while the games still agree) cancels. Pure arithmetic: no game, no
 * allocation. */
#ifndef FOH_TUNE_PAIRED_H
#define FOH_TUNE_PAIRED_H

/* A difference B - A, in the figure's unit, with the variance of its estimate. */
typedef struct {
    double diff;      /* mean of the per-game differences */
    double var;       /* paired: sample variance of the d_g / n */
    double var_unpaired; /* the same two samples taken as independent: var(zA)/n + var(zB)/n */
    long n;           /* games paired */
} tune_pair;

/* The paired difference of per-game values ZB - ZA over games [0, N) (N >= 1;
 * with N = 1 both variances are 0). */
tune_pair tune_paired(const double *za, const double *zb, long n);

/* The per-game values Z[0, N) of a ratio R = sum U / sum W (a card's owners'
 * win units U_g over the times owned W_g, ...): z_g = R + (U_g - R W_g) / (sum
 * W / N), whose mean is R and whose variance over N is the delta method's
 * (the ratio's clustered-by-game variance). SCALE multiplies R (100: points).
 * 0 (Z untouched) when sum W is 0: the ratio is not defined. */
int tune_ratio_values(const double *u, const double *w, long n, double scale, double *z);

/* Z[g] = SA * A[g] + SB * B[g] for g < N (A spread: hi minus lo; B may be NULL). */
void tune_combine(double *z, const double *a, double sa, const double *b, double sb, long n);

/* Mean and variance of the mean of Z[0, N). */
void tune_mean_var(const double *z, long n, double *mean, double *var);

#endif
