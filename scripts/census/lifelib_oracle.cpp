// The census oracle: lifelib's own hashsoup and object classifier, driven the way apgluxe's
// censusSoup drives them (stabilise by population periodicity, then separate over the
// stabilisation period with retries for pathological objects). Prints, per soup, the
// generation at which it was judged stable, and its objects. Built against python-lifelib's
// sources by scripts/census/make_oracle.sh; lifelab's tests read its recorded output.
#include "pattern2.h"
#include "classifier.h"
#include "soup/hashsoup.h"
#include <iostream>
#include <sstream>

// Phase II hashes only this box around the soup, so that escaped ships do not stop a match.
static uint64_t near_hash(apg::pattern &pat) {
    apg::pattern near = pat.subrect(-2048, -2048, 4096, 4096);
    return near.digest();
}

static int naive(apg::pattern &pat, uint64_t &gen) {
    int depth = 0, prevpop = 0, currpop = 0, period = 8, security = 15;
    for (int i = 0; i < 1000; i++) {
        if (i == 25) security = 20;
        if (i == 50) security = 25;
        if (i == 75) security = 30;
        if (i == 200) period = 12;
        if (i == 400) period = 30;
        pat = pat[period]; gen += period;
        currpop = pat.totalPopulation();
        if (currpop == prevpop) {
            depth += 1;
        } else {
            depth = 0;
            if (period < 30) { i += 1; pat = pat[12]; gen += 12; }
        }
        prevpop = currpop;
        if (depth == security) return period;
    }
    return 0;
}

static int stabilise(apg::pattern &pat, uint64_t &gen) {
    int pp = naive(pat, gen);
    if (pp > 0) return pp;
    // The first repeat of the cells near the soup, every 30 generations (apgluxe's sorted,
    // cut-short list makes the answer depend on the hash's values).
    std::map<uint64_t, uint64_t> seen;
    uint64_t generation = 0;
    for (int j = 0; j < 4000; j++) {
        pat = pat[30]; gen += 30; generation += 30;
        uint64_t h = near_hash(pat);
        auto it = seen.find(h);
        if (it != seen.end()) {
            int period = generation - it->second;
            int prevpop = pat.totalPopulation();
            for (int i = 0; i < 20; i++) {
                pat = pat[period]; gen += period;
                int currpop = pat.totalPopulation();
                if (currpop != prevpop) { if (period < 1280) period = 1280; break; }
                prevpop = currpop;
            }
            return period;
        }
        seen[h] = generation;
    }
    pat = pat[1280]; gen += 1280;
    return 1280;
}

int main(int argc, char **argv) {
    if (argc != 6) { std::cerr << "usage: oracle RULE SYMMETRY ROOT FIRST END" << std::endl; return 2; }
    std::string rule = argv[1], sym = argv[2], root = argv[3];
    long first = atol(argv[4]), end = atol(argv[5]);
    apg::lifetree<uint32_t, 1> lt(1000);
    apg::classifier cfier(&lt, rule);
    for (long i = first; i < end; i++) {
        std::vector<apg::bitworld> bwv = apg::hashsoup(root + std::to_string(i), sym);
        apg::pattern pat(&lt, bwv, rule);
        uint64_t gen = 0;
        int duration = stabilise(pat, gen);
        uint64_t settled = gen;
        std::map<std::string, int64_t> cm;
        for (int attempt = 0;; attempt++) {
            cm.clear();
            if (pat.empty()) break;
            cm = cfier.census(pat, duration);
            bool yl = false; int path = 0;
            for (auto &kv : cm) { if (kv.first[0] == 'y') yl = true; else if (kv.first == "PATHOLOGICAL") path++; }
            if (path == 0 || yl || attempt >= 5) break;
            pat = pat[10000]; duration = 4000;
        }
        std::cout << i << " " << settled;
        for (auto &kv : cm) if (kv.second > 0 && kv.first != "xs0_0") std::cout << " " << kv.first << "*" << kv.second;
        std::cout << "\n";
    }
    return 0;
}
