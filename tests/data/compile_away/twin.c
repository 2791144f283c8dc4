/* twin.c - instrumented.c with the QQ calls taken out: only the user's int key variables remain. */
double work(double *x, int n);

double work(double *x, int n)
{
    int kstate = -1;
    int kmark = -1;
    int kcount = -1;
    int kvalue = -1;
    int calls = 0;
    double s = 0;
    for (int i = 0; i < n; i++) {
        s += x[i] * x[i];
    }
    return s + calls;
}
