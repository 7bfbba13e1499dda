// Reads a valgrind `lackey --trace-mem=yes` trace on stdin and counts, per
// instruction address, the loads the processor cannot forward from a store
// in flight: a load that overlaps one of the last W stores but whose bytes
// do not all come from one store (a load wider than the store it reads, one
// that spans two stores, or one part store, part cache).
// W is about the store buffer of a current x86 core. Prints "L pc count"
// per such load, and "S pc store_pc count" per store it read part of: the
// store that wrote the value, which is where a fix usually is.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#define W 56
#define HS (1 << 20)
typedef struct { uint64_t a; int s; uint64_t pc; } St;
St ring[W]; int head = 0, n = 0;
// One table for both kinds: a load's key is (pc, 0), a store's (pc, store pc).
uint64_t keys[HS][2]; uint64_t cnt[HS];
static void bump(uint64_t pc, uint64_t store) {
  uint64_t h = ((pc ^ (store * 0xff51afd7ed558ccdull)) * 0x9E3779B97F4A7C15ull) >> 44;
  while (keys[h][0] && (keys[h][0] != pc || keys[h][1] != store)) h = (h + 1) & (HS - 1);
  keys[h][0] = pc; keys[h][1] = store; cnt[h]++;
}
int main() {
  char line[256]; uint64_t pc = 0;
  while (fgets(line, sizeof line, stdin)) {
    if (line[0] == 'I') { pc = strtoull(line + 3, NULL, 16); continue; }
    if (line[0] != ' ') continue;
    char k = line[1]; char *c; uint64_t a = strtoull(line + 3, &c, 16); int s = atoi(c + 1);
    if (k == 'L' || k == 'M') {
      int covered = 0, bad = 0, src = -2, from[64], m = 0;
      for (uint64_t b = a; b < a + s; b++) {
        int y = -1;
        for (int i = 0; i < n; i++) {
          int j = (head - 1 - i + W) % W;
          if (ring[j].a <= b && b < ring[j].a + ring[j].s) { y = j; break; }
        }
        if (y >= 0) {
          covered++;
          int seen = 0;
          for (int i = 0; i < m; i++) seen |= from[i] == y;
          if (!seen && m < 64) from[m++] = y;
        }
        if (src == -2) src = y; else if (src != y) bad = 1;
      }
      if (covered && !bad && src >= 0 && !(ring[src].a <= a && a + s <= ring[src].a + ring[src].s)) bad = 1;
      if (covered && (bad || src < 0)) {
        bump(pc, 0);
        for (int i = 0; i < m; i++) bump(pc, ring[from[i]].pc);
      }
    }
    if (k == 'S' || k == 'M') {
      ring[head].a = a; ring[head].s = s; ring[head].pc = pc;
      head = (head + 1) % W; if (n < W) n++;
    }
  }
  for (int i = 0; i < HS; i++) {
    if (!keys[i][0]) continue;
    if (keys[i][1]) printf("S %lx %lx %lu\n", keys[i][0], keys[i][1], cnt[i]);
    else printf("L %lx %lu\n", keys[i][0], cnt[i]);
  }
  return 0;
}
