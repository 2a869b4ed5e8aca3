/* Every public header compiles on its own as C99 with -pedantic -Werror
 * (this file is compiled once per header, with TASYNC_HEADER naming it). */
#include TASYNC_HEADER
#include TASYNC_HEADER /* include guards */

int main(void) { return 0; }
