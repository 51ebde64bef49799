/* The commands of the foh program, one per row of foh.c's table; each is
 * defined in the folder of its family (docs/architecture.md). ARGV holds the
 * words after the command's name; the result is the exit status (CLI_OK...). */
#ifndef FOH_COMMANDS_H
#define FOH_COMMANDS_H

int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_legal(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_scenario(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif
