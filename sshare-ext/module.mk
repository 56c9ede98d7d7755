# SPDX-License-Identifier: GPL-2.0-or-later
# sshare-ext: the sshare-compatible client (sshare-ext(1)).  Linked with
# libtreeshare for every number it computes and with libslurm (Debian's,
# or SLURM_PREFIX's) for the shares RPC.  Only shares_rpc.c, clusters.c
# (-M), cred_names.c and job_fs_view.c (--diagnose-f/-p online) see Slurm's
# internal headers (the message structs; plugins/slurm_compat.h), from the
# configured source in $(SLURM_SRC); explain_rpc.c (--explain) includes
# plugins/slurm_compat.h for the client differences.
SSHARE_EXT_SRCS := $(filter-out sshare-ext/ts_replay.c sshare-ext/replay_report.c,\
	$(wildcard sshare-ext/*.c))
SSHARE_EXT_OBJS := $(patsubst sshare-ext/%.c,$(BUILD)/obj/sshare-ext/%.o,\
	$(SSHARE_EXT_SRCS))
SSHARE_EXT_BIN := $(BUILD)/bin/sshare-ext

all: $(SSHARE_EXT_BIN)

$(BUILD)/obj/sshare-ext/shares_rpc.o $(BUILD)/obj/sshare-ext/clusters.o \
	$(BUILD)/obj/sshare-ext/cred_names.o \
	$(BUILD)/obj/sshare-ext/job_fs_view.o \
	$(BUILD)/obj/sshare-ext/explain_rpc.o: \
	SSHARE_EXT_RPC_CFLAGS := -iquote . -I$(SLURM_SRC)

$(BUILD)/obj/sshare-ext/%.o: sshare-ext/%.c $(wildcard sshare-ext/*.h src/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -Isshare-ext $(SSHARE_EXT_RPC_CFLAGS) \
		$(SLURM_API_CFLAGS) -c -o $@ $<

$(SSHARE_EXT_BIN): $(SSHARE_EXT_OBJS) $(LIBTS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(SSHARE_EXT_OBJS) $(LIBTS) $(SLURM_LIB_LDFLAGS) \
		-lslurm -lm

# ts-replay (ts-replay(1)): an accounting history through the plugin's
# cycle.  Built from here because it reads the tree as sshare-ext's
# offline mode does (slurm_order.c); pure libtreeshare otherwise, no
# libslurm, so it runs on any machine the history was copied to.
TS_REPLAY_OBJS := $(BUILD)/obj/sshare-ext/ts_replay.o \
	$(BUILD)/obj/sshare-ext/replay_report.o \
	$(BUILD)/obj/sshare-ext/slurm_order.o
TS_REPLAY_BIN := $(BUILD)/bin/ts-replay

all: $(TS_REPLAY_BIN)

$(TS_REPLAY_BIN): $(TS_REPLAY_OBJS) $(LIBTS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(TS_REPLAY_OBJS) $(LIBTS) -lm
