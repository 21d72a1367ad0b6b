/* tagscan.h - placeholder */
