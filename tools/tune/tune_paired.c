/* tune_paired: see tune_paired.h. */
#include "tune/tune_paired.h"

void tune_mean_var(const double *z, long n, double *mean, double *var)
{
    double s = 0, ss = 0;
    *mean = *var = 0;
    if (n <= 0)
        return;
    for (long g = 0; g < n; g++)
        s += z[g];
    double m = s / n;
    for (long g = 0; g < n; g++)
        ss += (z[g] - m) * (z[g] - m);
    *mean = m;
    *var = n > 1 ? ss / (n - 1) / n : 0;
}

tune_pair tune_paired(const double *za, const double *zb, long n)
{
    tune_pair p = {0, 0, 0, n > 0 ? n : 0};
    if (n <= 0)
        return p;
    /* Two passes over the differences: no cancellation of large sums. */
    double s = 0, ss = 0, ma, mb, va, vb;
    for (long g = 0; g < n; g++)
        s += zb[g] - za[g];
    p.diff = s / n;
    for (long g = 0; g < n; g++) {
        double e = zb[g] - za[g] - p.diff;
        ss += e * e;
    }
    p.var = n > 1 ? ss / (n - 1) / n : 0;
    tune_mean_var(za, n, &ma, &va);
    tune_mean_var(zb, n, &mb, &vb);
    p.var_unpaired = va + vb;
    return p;
}

int tune_ratio_values(const double *u, const double *w, long n, double scale, double *z)
{
    double su = 0, sw = 0;
    for (long g = 0; g < n; g++) {
        su += u[g];
        sw += w[g];
    }
    if (n <= 0 || sw <= 0)
        return 0;
    double r = su / sw, per = sw / n;
    for (long g = 0; g < n; g++)
        z[g] = scale * (r + (u[g] - r * w[g]) / per);
    return 1;
}

void tune_combine(double *z, const double *a, double sa, const double *b, double sb, long n)
{
    for (long g = 0; g < n; g++)
        z[g] = sa * a[g] + (b ? sb * b[g] : 0);
}
