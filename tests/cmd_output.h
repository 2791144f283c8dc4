/* cmd_output.h - tests' runs of a qqbench command in-process, its standard output captured. */
#ifndef QQ_TEST_CMD_OUTPUT_H
#define QQ_TEST_CMD_OUTPUT_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * Run CMD(ARGC, ARGV) (a cmd_* of harness/cli/cmds.h) with its standard output
 * in the file "cmd.out" and then in OUT (OUTLEN bytes at most, with the
 * terminating NUL). Returns CMD's exit status.
 */
static inline int cmd_output(int (*cmd)(int, char **), int argc, char **argv, char *out,
                             size_t outlen)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int fd = open("cmd.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (saved < 0 || fd < 0) {
        fprintf(stderr, "cmd_output: cannot redirect standard output\n");
        exit(1);
    }
    dup2(fd, STDOUT_FILENO);
    close(fd);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    FILE *fp = fopen("cmd.out", "r");
    size_t got = fp ? fread(out, 1, outlen - 1, fp) : 0;
    out[got] = '\0';
    if (fp)
        fclose(fp);
    return rc;
}

#endif /* QQ_TEST_CMD_OUTPUT_H */
