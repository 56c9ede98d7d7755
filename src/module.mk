# libtreeshare: pure C, no Slurm headers.  Every .c in src/ and src/power/
# is part of it.
LIB_SRCS := $(wildcard src/*.c src/power/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/obj/src/%.o,$(LIB_SRCS))
LIBTS := $(BUILD)/lib/libtreeshare.a

all: $(LIBTS)

$(BUILD)/obj/src/%.o: src/%.c $(wildcard src/*.h src/power/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LTO) -c -o $@ $<

$(LIBTS): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(LTO_AR) rcs $@ $^
